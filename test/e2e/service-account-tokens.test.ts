/**
 * End to end: the real kubectl creates a service account and asks for a token with
 * `kubectl create token --audience --duration` (and bound to a pod with --bound-object-kind); the
 * token then drives kubectl itself from a kubeconfig that holds only that token.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { kubeconfig } from '../../hack/run-local.js';
import { kubectl, type KubectlResult } from '../support/kubectl.js';
import { useServer } from '../support/server.js';
import { decodeToken, serviceAccountFlags, testIssuer, writeSigningKey } from '../support/service-accounts.js';

function ok(r: KubectlResult, what: string): string {
  assert.equal(r.code, 0, `${what} failed (${r.code}): ${r.stderr}${r.stdout}`);
  return r.stdout;
}

describe('kubectl create token', () => {
  const fx = useServer({}, async () => serviceAccountFlags(await writeSigningKey('ec')));

  for (const version of [undefined, '1.27']) {
    it(`issues tokens with the asked audiences and duration (kubectl ${version ?? 'on PATH'})`, async () => {
      const ns = `tok${(version ?? 'path').replace('.', '')}`;
      ok(await kubectl(fx.kubeconfigPath, ['create', 'namespace', ns], { version }), 'create namespace');
      ok(await kubectl(fx.kubeconfigPath, ['-n', ns, 'create', 'serviceaccount', 'builder'], { version }), 'create serviceaccount');
      const out = ok(await kubectl(fx.kubeconfigPath, ['-n', ns, 'create', 'token', 'builder', '--audience', 'vault', '--audience', testIssuer, '--duration', '2h'], { version }), 'create token');
      const token = out.trim();
      const { header, claims } = decodeToken(token);
      assert.equal(header.alg, 'ES256');
      assert.deepEqual(claims.aud, ['vault', testIssuer]);
      assert.equal(claims.exp - claims.iat, 7200);
      assert.equal(claims.sub, `system:serviceaccount:${ns}:builder`);

      // The token is a credential kubectl can use.
      const path = join(fx.dir, `token-${ns}.kubeconfig`);
      await writeFile(path, kubeconfig(`https://127.0.0.1:${fx.port}`, fx.ca, 'sa', { token }));
      ok(await kubectl(path, ['-n', ns, 'get', 'serviceaccounts', 'builder', '-o', 'name'], { version }), 'get with the token');

      const short = await kubectl(fx.kubeconfigPath, ['-n', ns, 'create', 'token', 'builder', '--duration', '1m'], { version });
      assert.notEqual(short.code, 0);
      assert.match(short.stderr, /TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes/);
    });
  }

  it('binds a token to a pod with --bound-object-kind', async () => {
    ok(await kubectl(fx.kubeconfigPath, ['create', 'serviceaccount', 'runner']), 'create serviceaccount');
    const manifest = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: job\nspec:\n  serviceAccountName: runner\n  containers:\n  - name: c\n    image: busybox\n';
    ok(await kubectl(fx.kubeconfigPath, ['apply', '-f', '-'], { input: manifest }), 'apply pod');
    const uid = ok(await kubectl(fx.kubeconfigPath, ['get', 'pod', 'job', '-o', 'jsonpath={.metadata.uid}']), 'get pod uid');
    const token = ok(await kubectl(fx.kubeconfigPath, ['create', 'token', 'runner', '--bound-object-kind', 'Pod', '--bound-object-name', 'job', '--bound-object-uid', uid]), 'create token').trim();
    assert.deepEqual(decodeToken(token).claims['kubernetes.io'].pod, { name: 'job', uid });
  });
});

/**
 * The real kubectl's auth commands against a test server: `auth whoami` (SelfSubjectReview, in
 * every kubectl that speaks authentication.k8s.io/v1: 1.28 on; 1.27 only knows v1alpha1/v1beta1,
 * which kube 1.33 does not serve either), `auth can-i` (SelfSubjectAccessReview), `auth can-i
 * --list` (SelfSubjectRulesReview) and --as/--as-group impersonation, with AlwaysAllow and
 * AlwaysDeny. Users come from a --token-auth-file, and a service account token (which carries an
 * extra) from the serviceaccounts/token subresource.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { kubeconfig } from '../../hack/run-local.js';
import { kubectl } from '../support/kubectl.js';
import { useServer, type ServerFixture } from '../support/server.js';
import { decodeToken, serviceAccountFlags, writeSigningKey } from '../support/service-accounts.js';
import { tokenAuthFileFlag, type StaticTokenUser } from '../support/static-tokens.js';

const aliceUser: StaticTokenUser = { token: 'alice-token', name: 'alice', uid: 'alice-uid', groups: ['devs'] };

/** Writes a kubeconfig for the token's user of fx and returns its path. */
async function tokenKubeconfig(fx: ServerFixture, name: string, token: string): Promise<string> {
  const path = join(fx.dir, `kubeconfig-${name}`);
  await writeFile(path, kubeconfig(`https://127.0.0.1:${fx.port}`, fx.ca, 'capstan', { token }));
  return path;
}

/** Rows as kubectl prints them (Go's tabwriter: each cell padded to its column's widest plus 3). */
function table(rows: ReadonlyArray<readonly [string, string]>): string {
  const width = Math.max(...rows.map(([k]) => k.length)) + 3;
  return rows.map(([k, v]) => `${k.padEnd(width)}${v}\n`).join('');
}

describe('kubectl auth: --authorization-mode=AlwaysAllow', () => {
  const fx = useServer({}, async () => [await tokenAuthFileFlag([aliceUser]), ...serviceAccountFlags(await writeSigningKey('ec'))]);
  let alice = '';
  before(async () => {
    alice = await tokenKubeconfig(fx, 'alice', aliceUser.token);
  });

  for (const version of ['1.28', '1.30', '1.33', undefined]) {
    it(`auth whoami as anonymous (kubectl ${version ?? 'on PATH'})`, async () => {
      const r = await kubectl(fx.kubeconfigPath, ['auth', 'whoami'], { version });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'ATTRIBUTE   VALUE\nUsername    system:anonymous\nGroups      [system:unauthenticated]\n');
    });
  }

  it('auth whoami with kubectl 1.27 fails as it does against kube 1.33 (no v1alpha1/v1beta1)', async () => {
    const r = await kubectl(fx.kubeconfigPath, ['auth', 'whoami'], { version: '1.27' });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /the selfsubjectreviews API is not enabled in the cluster/);
  });

  it('auth whoami as a token user shows uid and groups', async () => {
    const r = await kubectl(alice, ['auth', 'whoami']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'ATTRIBUTE   VALUE\nUsername    alice\nUID         alice-uid\nGroups      [devs system:authenticated]\n');
  });

  it('auth whoami as a service account shows its extra (the credential id)', async () => {
    const sa = await fx.request('POST', '/api/v1/namespaces/default/serviceaccounts', { body: { metadata: { name: 'deployer' } } });
    assert.equal(sa.status, 201, sa.text);
    const tr = await fx.request('POST', '/api/v1/namespaces/default/serviceaccounts/deployer/token', { body: { kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1', spec: {} } });
    assert.equal(tr.status, 201, tr.text);
    const token: string = tr.json().status.token;
    const r = await kubectl(await tokenKubeconfig(fx, 'deployer', token), ['auth', 'whoami']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      r.stdout,
      table([
        ['ATTRIBUTE', 'VALUE'],
        ['Username', 'system:serviceaccount:default:deployer'],
        ['UID', sa.json().metadata.uid],
        ['Groups', '[system:serviceaccounts system:serviceaccounts:default system:authenticated]'],
        ['Extra: authentication.kubernetes.io/credential-id', `[JTI=${decodeToken(token).claims.jti}]`],
      ]),
    );
  });

  it('auth can-i create pods answers yes', async () => {
    const r = await kubectl(alice, ['auth', 'can-i', 'create', 'pods']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'yes\n');
  });

  it('auth can-i --list shows the rules of every mode', async () => {
    const r = await kubectl(alice, ['auth', 'can-i', '--list']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'Resources   Non-Resource URLs   Resource Names   Verbs\n*.*         []                  []               [*]\n            [*]                 []               [*]\n');
  });

  it('--as and --as-group make whoami show the impersonated user', async () => {
    const r = await kubectl(alice, ['--as=x', '--as-group=y', 'auth', 'whoami']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'ATTRIBUTE   VALUE\nUsername    x\nGroups      [y system:authenticated]\n');
    const sa = await kubectl(alice, ['--as=system:serviceaccount:default:builder', 'auth', 'whoami']);
    assert.equal(sa.stdout, 'ATTRIBUTE   VALUE\nUsername    system:serviceaccount:default:builder\nGroups      [system:serviceaccounts system:serviceaccounts:default system:authenticated]\n');
  });
});

describe('kubectl auth: --authorization-mode=AlwaysDeny', () => {
  const fx = useServer({}, async () => [await tokenAuthFileFlag([aliceUser]), '--authorization-mode=AlwaysDeny']);
  let alice = '';
  before(async () => {
    alice = await tokenKubeconfig(fx, 'alice', aliceUser.token);
  });

  it('auth can-i fails: the review itself is forbidden', async () => {
    const r = await kubectl(alice, ['auth', 'can-i', 'create', 'pods']);
    assert.notEqual(r.code, 0);
    assert.match(
      r.stderr,
      /selfsubjectaccessreviews\.authorization\.k8s\.io is forbidden: User "alice" cannot create resource "selfsubjectaccessreviews" in API group "authorization\.k8s\.io" at the cluster scope: Everything is forbidden\./,
    );
  });

  it('--as is refused with kube message', async () => {
    const r = await kubectl(alice, ['--as=x', 'get', '--raw', '/api/v1/namespaces/default/pods']);
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      'Error from server (Forbidden): users "x" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope: Everything is forbidden.\n',
    );
  });
});

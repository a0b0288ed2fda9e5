/**
 * The real kubectl's auth commands against a test server: `auth whoami` (SelfSubjectReview, in
 * every kubectl that speaks authentication.k8s.io/v1: 1.28 on; 1.27 only knows v1alpha1/v1beta1,
 * which kube 1.33 does not serve either), `auth can-i` (SelfSubjectAccessReview), `auth can-i
 * --list` (SelfSubjectRulesReview) and --as/--as-group impersonation, with AlwaysAllow and
 * AlwaysDeny.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { kubeconfig } from '../../hack/run-local.js';
import { kubectl } from '../support/kubectl.js';
import { useServer, type ServerFixture } from '../support/server.js';
import { TestTokenAuthenticator, testTokens } from '../support/test-tokens.js';

/** Writes a kubeconfig for the token user of fx and returns its path. */
async function tokenKubeconfig(fx: ServerFixture, token: string): Promise<string> {
  const path = join(fx.dir, `kubeconfig-${token}`);
  await writeFile(path, kubeconfig(`https://127.0.0.1:${fx.port}`, fx.ca, 'capstan', { token }));
  return path;
}

describe('kubectl auth: --authorization-mode=AlwaysAllow', () => {
  const fx = useServer({ extraTokenAuthenticators: [new TestTokenAuthenticator(testTokens)] });
  let alice = '';
  before(async () => {
    alice = await tokenKubeconfig(fx, 'alice-token');
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

  it('auth whoami as a token user shows uid, groups and extra', async () => {
    const r = await kubectl(alice, ['auth', 'whoami']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'ATTRIBUTE       VALUE\nUsername        alice\nUID             alice-uid\nGroups          [devs system:authenticated]\nExtra: scopes   [read write]\n');
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
  const fx = useServer({ extraTokenAuthenticators: [new TestTokenAuthenticator(testTokens)] }, ['--authorization-mode=AlwaysDeny']);
  let alice = '';
  before(async () => {
    alice = await tokenKubeconfig(fx, 'alice-token');
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

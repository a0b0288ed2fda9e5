/**
 * End to end, issue 10's acceptance: ONE server started as an operator starts kube-apiserver, with
 * every authentication method at once (client certificates, a token file, service account tokens,
 * OIDC against a real issuer, a real token webhook) and --authorization-mode=Node,RBAC, driven by
 * the real kubectl with one kubeconfig per identity:
 * 1. `auth whoami -o json` names each method's user, groups and extras;
 * 2. `auth can-i` (--list and yes/no) follows a RoleBinding to `edit` in one namespace only;
 * 3. `--as/--as-group` works for an identity bound to the impersonate verb and is refused (kube's
 *    403) for one that is not;
 * 4. an editor cannot bind cluster-admin (plain authorization, then the escalation check);
 * 5. every kind of bad credential is 401 Unauthorized and counted once as an authentication error.
 */
import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync, X509Certificate } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import jwt from 'jsonwebtoken';
import { kubeconfig, type KubeconfigUser } from '../../hack/run-local.js';
import { clientCert, createCertificateAuthority, expiredClientCert, issueCertificate, type IssuedCertificate } from '../support/client-certs.js';
import { kubectl, type KubectlResult } from '../support/kubectl.js';
import { startTestIssuer, type TestIssuer } from '../support/oidc-issuer.js';
import { useServer } from '../support/server.js';
import { decodeToken, serviceAccountFlags, writeSigningKey, type TestSigningKey } from '../support/service-accounts.js';
import { startTestTokenWebhook, type TestTokenWebhook } from '../support/token-webhook.js';

const oidcClientID = 'capstan-e2e';
let issuer: TestIssuer;
let hook: TestTokenWebhook;
let saKey: TestSigningKey;
let certs: { admin: IssuedCertificate; alice: IssuedCertificate; expired: IssuedCertificate; stranger: IssuedCertificate; serverOnly: IssuedCertificate };

const tokenFile = ['bob-static-token,bob,bob-uid,"ops,qa"', 'erin-token,erin,erin-uid', 'rob-token,rob,rob-uid,binders', 'ivan-token,ivan,ivan-uid', 'uma-token,uma,uma-uid', ''].join('\n');

const fx = useServer({}, async () => {
  const ca = await createCertificateAuthority('e2e-client-ca');
  const strangerCA = await createCertificateAuthority('e2e-stranger-ca');
  certs = {
    admin: await clientCert(ca, 'admin', ['system:masters']),
    alice: await clientCert(ca, 'alice', ['dev', 'qa']),
    expired: await expiredClientCert(ca, 'alice'),
    stranger: await clientCert(strangerCA, 'alice', ['system:masters']),
    // Signed by the trusted CA, but for serving only (no client authentication usage).
    serverOnly: await issueCertificate(ca, { commonName: 'alice', organizations: ['system:masters'], usage: 'server' }),
  };
  await writeFile(join(fx.dir, 'client-ca.crt'), ca.certPem);
  await writeFile(join(fx.dir, 'tokens.csv'), tokenFile);
  saKey = await writeSigningKey('rsa');
  issuer = await startTestIssuer(fx.dir, { clientId: oidcClientID });
  hook = await startTestTokenWebhook();
  hook.users.set('wanda-webhook-token', { username: 'wanda', uid: 'wanda-uid', groups: ['hook-team'], extra: { 'example.com/team': ['blue'] } });
  return [
    `--client-ca-file=${join(fx.dir, 'client-ca.crt')}`,
    `--token-auth-file=${join(fx.dir, 'tokens.csv')}`,
    ...serviceAccountFlags(saKey),
    `--oidc-issuer-url=${issuer.url}`,
    `--oidc-client-id=${oidcClientID}`,
    `--oidc-ca-file=${issuer.caFile}`,
    '--oidc-username-claim=email',
    '--oidc-username-prefix=oidc:',
    '--oidc-groups-claim=groups',
    '--oidc-groups-prefix=oidc:',
    `--authentication-token-webhook-config-file=${await hook.writeKubeconfig(fx.dir)}`,
    '--authorization-mode=Node,RBAC',
  ];
});
after(async () => {
  await issuer?.stop();
  await hook?.stop();
});

/** Writes a kubeconfig for one identity and returns its path. */
async function identity(name: string, user: KubeconfigUser): Promise<string> {
  const path = join(fx.dir, `${name}.kubeconfig`);
  await writeFile(path, kubeconfig(`https://127.0.0.1:${fx.port}`, fx.ca, name, user));
  return path;
}

function ok(r: KubectlResult, what: string): string {
  assert.equal(r.code, 0, `${what} failed (${r.code}): ${r.stderr}${r.stdout}`);
  return r.stdout;
}

const certUser = (c: IssuedCertificate): KubeconfigUser => ({ clientCert: c.cert, clientKey: c.key });

/** kube's credential id of a client certificate: the SHA-256 of its DER. */
function certificateCredentialID(c: IssuedCertificate): string {
  return `X509SHA256=${createHash('sha256').update(new X509Certificate(c.cert).raw).digest('hex')}`;
}

/** The userInfo `kubectl auth whoami -o json` shows for kubeconfig path. */
async function whoami(path: string, args: readonly string[] = [], version?: string): Promise<Record<string, unknown>> {
  const out = ok(await kubectl(path, [...args, 'auth', 'whoami', '-o', 'json'], { version }), 'auth whoami');
  const review = JSON.parse(out) as { apiVersion: string; kind: string; status: { userInfo: Record<string, unknown> } };
  assert.equal(review.kind, 'SelfSubjectReview');
  assert.equal(review.apiVersion, 'authentication.k8s.io/v1');
  return review.status.userInfo;
}

/** The server's authentication_attempts counter for result, scraped from /metrics as the admin. */
async function attempts(admin: string, result: 'success' | 'error' | 'failure'): Promise<number> {
  const text = ok(await kubectl(admin, ['get', '--raw', '/metrics']), 'scrape /metrics');
  const m = new RegExp(`^authentication_attempts\\{result="${result}"\\} (\\d+)$`, 'm').exec(text);
  return m ? Number(m[1]) : 0;
}

const rbacManifest = `
apiVersion: v1
kind: Namespace
metadata: {name: team-a}
---
apiVersion: v1
kind: Namespace
metadata: {name: team-b}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: erin-edit, namespace: team-a}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: edit}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: erin}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: binders-edit, namespace: team-a}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: edit}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: Group, name: binders}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: rolebinding-writer, namespace: team-a}
rules: [{apiGroups: [rbac.authorization.k8s.io], resources: [rolebindings], verbs: [create, get, list]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: binders-write-bindings, namespace: team-a}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: rolebinding-writer}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: Group, name: binders}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: impersonator}
rules: [{apiGroups: [""], resources: [users, groups, serviceaccounts], verbs: [impersonate]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: ivan-impersonates}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: impersonator}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: ivan}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: user-impersonator}
rules: [{apiGroups: [""], resources: [users], verbs: [impersonate]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: uma-impersonates-users}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: user-impersonator}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: uma}]
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: builder, namespace: team-a}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: doomed, namespace: team-a}
---
apiVersion: v1
kind: Pod
metadata: {name: runner, namespace: team-a}
spec:
  serviceAccountName: builder
  containers: [{name: c, image: busybox}]
`;

describe('security, end to end: every authentication method and Node,RBAC on one server', () => {
  const kc: Record<string, string> = {};
  let podUID = '';
  let builderUID = '';
  let builderToken = '';
  let doomedToken = '';

  before(async () => {
    kc.admin = await identity('admin', certUser(certs.admin));
    kc.alice = await identity('alice', certUser(certs.alice));
    kc.bob = await identity('bob', { token: 'bob-static-token' });
    kc.erin = await identity('erin', { token: 'erin-token' });
    kc.rob = await identity('rob', { token: 'rob-token' });
    kc.ivan = await identity('ivan', { token: 'ivan-token' });
    kc.uma = await identity('uma', { token: 'uma-token' });
    kc.wanda = await identity('wanda', { token: 'wanda-webhook-token' });
    kc.jane = await identity('jane', { token: issuer.sign({ sub: 'jane-1', email: 'jane@example.com', email_verified: true, groups: ['admins', 'viewers'] }) });
    ok(await kubectl(kc.admin, ['apply', '-f', '-'], { input: rbacManifest }), 'apply the RBAC fixtures');
    podUID = ok(await kubectl(kc.admin, ['-n', 'team-a', 'get', 'pod', 'runner', '-o', 'jsonpath={.metadata.uid}']), 'pod uid');
    builderUID = ok(await kubectl(kc.admin, ['-n', 'team-a', 'get', 'sa', 'builder', '-o', 'jsonpath={.metadata.uid}']), 'sa uid');
    builderToken = ok(
      await kubectl(kc.admin, ['-n', 'team-a', 'create', 'token', 'builder', '--bound-object-kind', 'Pod', '--bound-object-name', 'runner', '--bound-object-uid', podUID]),
      'create token',
    ).trim();
    kc.builder = await identity('builder', { token: builderToken });
    // The revoked case: a token never presented before its service account is deleted, so kube's
    // 10 s success cache cannot hold it; deleted here so the watch cache has long seen the deletion.
    doomedToken = ok(await kubectl(kc.admin, ['-n', 'team-a', 'create', 'token', 'doomed']), 'create token').trim();
    ok(await kubectl(kc.admin, ['-n', 'team-a', 'delete', 'sa', 'doomed']), 'delete sa');
    // The OIDC authenticator reads its issuer's discovery document in the background at start.
    const deadline = Date.now() + 15_000;
    while ((await kubectl(kc.jane, ['auth', 'whoami'])).code !== 0) {
      assert.ok(Date.now() < deadline, 'the OIDC authenticator never became ready');
      await new Promise((r) => setTimeout(r, 200));
    }
  });

  describe('1. auth whoami names the user of each method', () => {
    it('a client certificate: CN, O groups and kube 1.33 credential id', async () => {
      assert.deepEqual(await whoami(kc.alice), {
        username: 'alice',
        groups: ['dev', 'qa', 'system:authenticated'],
        extra: { 'authentication.kubernetes.io/credential-id': [certificateCredentialID(certs.alice)] },
      });
    });

    it('a static token (--token-auth-file): name, uid and groups', async () => {
      for (const version of ['1.28', undefined, '1.33']) {
        assert.deepEqual(await whoami(kc.bob, [], version), { username: 'bob', uid: 'bob-uid', groups: ['ops', 'qa', 'system:authenticated'] }, `kubectl ${version ?? 'on PATH'}`);
      }
    });

    it('an OIDC ID token: prefixed email and groups claims', async () => {
      assert.deepEqual(await whoami(kc.jane), { username: 'oidc:jane@example.com', groups: ['oidc:admins', 'oidc:viewers', 'system:authenticated'] });
    });

    it('a bound service account token from kubectl create token: the pod and the token id as extras', async () => {
      const { claims } = decodeToken(builderToken);
      assert.deepEqual(await whoami(kc.builder), {
        username: 'system:serviceaccount:team-a:builder',
        uid: builderUID,
        groups: ['system:serviceaccounts', 'system:serviceaccounts:team-a', 'system:authenticated'],
        extra: {
          'authentication.kubernetes.io/credential-id': [`JTI=${claims.jti}`],
          'authentication.kubernetes.io/pod-name': ['runner'],
          'authentication.kubernetes.io/pod-uid': [podUID],
        },
      });
    });

    it('a token the webhook vouches for: its user, uid, groups and extra', async () => {
      const before = hook.reviews.length;
      assert.deepEqual(await whoami(kc.wanda), { username: 'wanda', uid: 'wanda-uid', groups: ['hook-team', 'system:authenticated'], extra: { 'example.com/team': ['blue'] } });
      assert.equal(hook.reviews.length, before + 1, 'the webhook was asked once');
    });
  });

  describe('2. auth can-i follows a RoleBinding to edit in one namespace', () => {
    it('can-i --list shows edit in team-a and only the basic rules in team-b', async () => {
      const rows = (out: string): Map<string, string> =>
        new Map(
          out
            .trim()
            .split('\n')
            .slice(1)
            .map((l) => l.trim().split(/\s{2,}/))
            .map((cols) => [cols.slice(0, -1).join(' | '), cols[cols.length - 1] as string]),
        );
      const a = rows(ok(await kubectl(kc.erin, ['auth', 'can-i', '--list', '-n', 'team-a']), 'can-i --list team-a'));
      const b = rows(ok(await kubectl(kc.erin, ['auth', 'can-i', '--list', '-n', 'team-b']), 'can-i --list team-b'));
      const all = '[create delete deletecollection patch update get list watch]';
      assert.equal(a.get('pods | [] | []'), all);
      assert.equal(a.get('deployments.apps | [] | []'), all);
      // edit reads these first (its first aggregated rule), then writes them.
      assert.equal(a.get('secrets | [] | []'), '[get list watch create delete deletecollection patch update]');
      assert.equal(a.get('pods/exec | [] | []'), '[get list watch create delete deletecollection patch update]');
      assert.equal(a.get('rolebindings.rbac.authorization.k8s.io | [] | []'), undefined, 'edit grants no RBAC writes');
      for (const [k, v] of b) assert.equal(a.get(k), v, `team-a keeps the basic rule ${k}`);
      assert.equal(b.get('pods | [] | []'), undefined);
      assert.equal(b.get('selfsubjectreviews.authentication.k8s.io | [] | []'), '[create]');
      assert.equal(b.get('selfsubjectaccessreviews.authorization.k8s.io | [] | []'), '[create]');
      assert.ok(a.size > b.size + 20, `edit adds many rules (${a.size} vs ${b.size})`);
    });

    it('can-i yes/no answers match the binding', async () => {
      const cases: Array<[string[], boolean]> = [
        [['create', 'pods', '-n', 'team-a'], true],
        [['create', 'pods', '-n', 'team-b'], false],
        [['get', 'secrets', '-n', 'team-a'], true],
        [['create', 'rolebindings', '-n', 'team-a'], false],
        [['create', 'pods', '--all-namespaces'], false],
        [['list', 'nodes'], false],
      ];
      for (const [args, yes] of cases) {
        const r = await kubectl(kc.erin, ['auth', 'can-i', ...args]);
        assert.deepEqual([r.code, r.stdout], yes ? [0, 'yes\n'] : [1, 'no\n'], `can-i ${args.join(' ')}: ${r.stderr}`);
      }
    });
  });

  describe('3. impersonation', () => {
    it('--as/--as-group works for a user bound to the impersonate verb', async () => {
      assert.deepEqual(await whoami(kc.ivan, ['--as=alice', '--as-group=dev']), { username: 'alice', groups: ['dev', 'system:authenticated'] });
      assert.deepEqual(await whoami(kc.ivan, ['--as=system:serviceaccount:team-a:builder']), {
        username: 'system:serviceaccount:team-a:builder',
        groups: ['system:serviceaccounts', 'system:serviceaccounts:team-a', 'system:authenticated'],
      });
    });

    it('is refused with kube 403 for a user without it', async () => {
      const message = 'users "alice" is forbidden: User "erin" cannot impersonate resource "users" in API group "" at the cluster scope';
      // auth whoami words any 403 its own way (kubectl's forbiddenErr)...
      const who = await kubectl(kc.erin, ['--as=alice', '--as-group=dev', 'auth', 'whoami']);
      assert.deepEqual([who.code, who.stderr], [1, 'error: the selfsubjectreviews API is not enabled in the cluster or you do not have permission to call it\n']);
      // ...so the same request through `create --raw` shows the server's Status message, as do other verbs.
      const raw = await kubectl(kc.erin, ['--as=alice', '--as-group=dev', 'create', '--raw', '/apis/authentication.k8s.io/v1/selfsubjectreviews', '-f', '-'], {
        input: '{"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"}',
      });
      assert.deepEqual([raw.code, raw.stderr], [1, `Error from server (Forbidden): ${message}\n`]);
      const get = await kubectl(kc.erin, ['--as=alice', '--as-group=dev', 'get', 'pods', '-n', 'team-a']);
      assert.deepEqual([get.code, get.stderr], [1, `Error from server (Forbidden): ${message}\n`]);
      const status = await fx.request('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
        headers: { authorization: 'Bearer erin-token', 'impersonate-user': 'alice', 'impersonate-group': 'dev' },
        body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
      });
      assert.equal(status.status, 403);
      assert.deepEqual(status.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Forbidden', details: { name: 'alice', kind: 'users' }, code: 403 });
      // Allowed to impersonate users but not groups: the user alone works, the group is refused.
      assert.deepEqual(await whoami(kc.uma, ['--as=alice']), { username: 'alice', groups: ['system:authenticated'] });
      const group = await kubectl(kc.uma, ['--as=alice', '--as-group=dev', 'get', 'pods', '-n', 'team-a']);
      assert.deepEqual([group.code, group.stderr], [1, 'Error from server (Forbidden): groups "dev" is forbidden: User "uma" cannot impersonate resource "groups" in API group "" at the cluster scope\n']);
    });
  });

  describe('4. escalation', () => {
    it('an editor cannot create a RoleBinding at all', async () => {
      const r = await kubectl(kc.erin, ['-n', 'team-a', 'create', 'rolebinding', 'grab', '--clusterrole=cluster-admin', '--user=erin']);
      assert.equal(r.code, 1);
      assert.equal(
        r.stderr,
        'error: failed to create rolebinding: rolebindings.rbac.authorization.k8s.io is forbidden: User "erin" cannot create resource "rolebindings" in API group "rbac.authorization.k8s.io" in the namespace "team-a"\n',
      );
    });

    it('an editor who may write RoleBindings still cannot bind cluster-admin', async () => {
      const r = await kubectl(kc.rob, ['-n', 'team-a', 'create', 'rolebinding', 'grab', '--clusterrole=cluster-admin', '--user=rob']);
      assert.equal(r.code, 1);
      assert.equal(
        r.stderr,
        'error: failed to create rolebinding: rolebindings.rbac.authorization.k8s.io "grab" is forbidden: user "rob" (groups=["binders" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
          '{APIGroups:["*"], Resources:["*"], Verbs:["*"]}\n{NonResourceURLs:["*"], Verbs:["*"]}\n',
      );
      // What rob holds may be delegated.
      ok(await kubectl(kc.rob, ['-n', 'team-a', 'create', 'rolebinding', 'share', '--clusterrole=edit', '--user=erin']), 'bind edit');
      assert.equal((await kubectl(kc.admin, ['-n', 'team-a', 'get', 'rolebinding', 'grab'])).code, 1, 'nothing was written');
    });
  });

  describe('5. bad credentials', () => {
    const now = Math.floor(Date.now() / 1000);
    /** The bound token kubectl made, its claims changed and re-signed with the server's key (or another). */
    const resign = (changes: Record<string, unknown>, key = saKey.privateKey, kid?: string): string => {
      const { header, claims } = decodeToken(builderToken);
      return jwt.sign({ ...claims, ...changes }, key, { algorithm: 'RS256', keyid: kid ?? header.kid, noTimestamp: true });
    };

    it('a token the test signs with kube claims is good until its exp is changed', async () => {
      const info = await whoami(await identity('resigned', { token: resign({ jti: 'resigned-jti' }) }));
      assert.equal(info.username, 'system:serviceaccount:team-a:builder');
      assert.deepEqual((info.extra as Record<string, string[]>)['authentication.kubernetes.io/credential-id'], ['JTI=resigned-jti']);
    });

    it('each is 401 Unauthorized, for its own reason, and counted once in authentication_attempts{result="error"}', async () => {
      const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
      const wrongAudience = ok(await kubectl(kc.admin, ['-n', 'team-a', 'create', 'token', 'builder', '--audience', 'vault']), 'create token').trim();
      // Why each token is refused, as a TokenReview tells the admin (kube's messages).
      const bad: Array<{ name: string; user: KubeconfigUser; reason?: RegExp }> = [
        // Past exp by more than kube's minute of leeway.
        { name: 'expired-sa-token', user: { token: resign({ iat: now - 7200, nbf: now - 7200, exp: now - 3600, jti: 'expired-jti' }) }, reason: /^service account token has expired$/ },
        {
          name: 'wrong-audience-token',
          user: { token: wrongAudience },
          reason: /^token audiences \["vault"\] is invalid for the target audiences \["https:\/\/kubernetes\.default\.svc\.cluster\.local"\]$/,
        },
        { name: 'unknown-kid-token', user: { token: resign({ jti: 'unknown-kid-jti' }, stranger, 'no-such-key') }, reason: /^invalid signature, no keys found$/ },
        { name: 'revoked-sa-token', user: { token: doomedToken }, reason: /^serviceaccounts "doomed" not found$/ },
        { name: 'expired-oidc-token', user: { token: issuer.sign({ sub: 'jane-1', email: 'jane@example.com', email_verified: true, iat: now - 7200, exp: now - 3600 }) }, reason: /^oidc: verify token: oidc: token is expired \(Token Expiry: / },
        { name: 'unknown-token', user: { token: 'nobody-knows-this-token' }, reason: /^invalid bearer token$/ },
        { name: 'untrusted-cert', user: certUser(certs.stranger) },
        { name: 'expired-cert', user: certUser(certs.expired) },
        { name: 'server-only-cert', user: certUser(certs.serverOnly) },
      ];
      for (const { name, user, reason } of bad) {
        if (!user.token) continue;
        const review = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: user.token } };
        const status = JSON.parse(ok(await kubectl(kc.admin, ['create', '-o', 'jsonpath={.status}', '-f', '-'], { input: JSON.stringify(review) }), 'token review'));
        assert.match(status.error, reason as RegExp, name);
        assert.equal(status.authenticated, undefined, name);
      }
      // The kubectl on PATH is a dispatcher that first asks /version (with the credential) to pick a
      // binary; a versioned binary makes exactly one request.
      const before = await attempts(kc.admin, 'error');
      for (const { name, user } of bad) {
        const r = await kubectl(await identity(name, user), ['auth', 'whoami'], { version: '1.33' });
        assert.deepEqual([r.code, r.stdout, r.stderr], [1, '', 'error: You must be logged in to the server (Unauthorized)\n'], name);
      }
      assert.equal((await attempts(kc.admin, 'error')) - before, bad.length);
    });

    it('the 401 body is kube Status', async () => {
      const r = await fx.request('GET', '/api', { headers: { authorization: 'Bearer nobody-knows-this-token' } });
      assert.equal(r.status, 401);
      assert.deepEqual(r.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
    });
  });
});

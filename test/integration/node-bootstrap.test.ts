/**
 * Node client certificate bootstrap and rotation end to end: an API server that signs
 * (--cluster-signing-cert-file/-key-file, a 40 s --cluster-signing-duration) and auto-approves node
 * client CSRs, a bootstrap identity in system:bootstrappers bound to system:node-bootstrapper and the
 * nodeclient role, system:nodes bound to selfnodeclient (as kubeadm binds them). The node agent's
 * bootstrap obtains system:node:<name>, writes --cert-dir/kubelet-client-current.pem and the
 * --kubeconfig, and rotation swaps in a renewed certificate while the client keeps working.
 */
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { lstat, readFile, readlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { kubeconfig } from '../../hack/run-local.js';
import { ApiClient } from '../../internal/nodeagent/client/api-client.js';
import { buildNodeClient } from '../../internal/nodeagent/certificate/client.js';
import { loadNodeKubeconfig } from '../../internal/nodeagent/certificate/kubeconfig.js';
import type { StoredPair } from '../../internal/nodeagent/certificate/store.js';
import { defaultNodeAgentConfig } from '../../internal/nodeagent/options/defaults.js';
import { createLogger } from '../../internal/observability/logging.js';
import { clientCert, createCertificateAuthority, tlsCall, type CertificateAuthority } from '../support/client-certs.js';
import { useServer } from '../support/server.js';

const log = createLogger(0, true);
let ca: CertificateAuthority;

const server = useServer({}, async () => {
  ca = await createCertificateAuthority('node-bootstrap-ca');
  const dir = server.dir;
  await writeFile(join(dir, 'ca.crt'), ca.certPem);
  await writeFile(join(dir, 'ca.key'), ca.keyPem);
  return [
    `--client-ca-file=${join(dir, 'ca.crt')}`,
    '--authorization-mode=Node,RBAC',
    '--enable-admission-plugins=NodeRestriction',
    `--cluster-signing-cert-file=${join(dir, 'ca.crt')}`,
    `--cluster-signing-key-file=${join(dir, 'ca.key')}`,
    '--cluster-signing-duration=40s',
    '--enable-bootstrap-token-auth',
  ];
});

function binding(name: string, role: string, group: string): unknown {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
    subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: group }],
  };
}

async function whoAmI(client: ApiClient): Promise<{ username: string; groups: string[] }> {
  const review = await client.create<{ status: { userInfo: { username: string; groups: string[] } } }>('/apis/authentication.k8s.io/v1/selfsubjectreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
  return review.status.userInfo;
}

describe('node client certificate bootstrap and rotation', () => {
  it('bootstraps system:node:<name> through an auto-approved CSR, writes the kubeconfig, and rotates', { timeout: 60_000 }, async () => {
    const admin = await clientCert(ca, 'bootstrap-test-admin', ['system:masters']);
    const api = (method: string, path: string, body?: unknown) => tlsCall(server.port, server.ca, method, path, { cert: admin, ...(body !== undefined ? { body } : {}) });
    for (const [name, role, group] of [
      ['kubelet-bootstrap', 'system:node-bootstrapper', 'system:bootstrappers'],
      ['node-autoapprove-bootstrap', 'system:certificates.k8s.io:certificatesigningrequests:nodeclient', 'system:bootstrappers'],
      ['node-autoapprove-certificate-rotation', 'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', 'system:nodes'],
    ] as const) {
      assert.equal((await api('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', binding(name, role, group))).status, 201);
    }
    const bootstrapCert = await clientCert(ca, 'system:bootstrap:abcdef', ['system:bootstrappers']);
    const dir = server.dir;
    const bootstrapKubeconfig = join(dir, 'bootstrap-kubelet.conf');
    await writeFile(bootstrapKubeconfig, kubeconfig(`https://127.0.0.1:${server.port}`, server.ca, 'bootstrap', { clientCert: bootstrapCert.cert, clientKey: bootstrapCert.key }));
    const config = {
      ...defaultNodeAgentConfig(),
      kubeconfig: join(dir, 'kubelet.conf'),
      bootstrapKubeconfig,
      certDir: join(dir, 'pki'),
      rotateCertificates: true,
    };
    const rotated: StoredPair[] = [];
    let onRotated: () => void = () => undefined;
    const firstRotation = new Promise<void>((resolve) => (onRotated = resolve));
    // 0.99: the deadline lands at 89.8% of the 5m40s lifetime (40 s plus the 5 min backdate), ~5 s after issue.
    const node = await buildNodeClient(config, 'boot-node', log, undefined, {
      random: () => 0.99,
      onRotated: (pair) => {
        rotated.push(pair);
        onRotated();
      },
    });
    try {
      // The store: a timestamped pair and the -current.pem link to it.
      const current = join(dir, 'pki', 'kubelet-client-current.pem');
      assert.ok((await lstat(current)).isSymbolicLink());
      assert.match(await readlink(current), /kubelet-client-\d{4}-\d{2}-\d{2}-\d{2}-\d{2}-\d{2}\.pem$/);
      const firstPem = await readFile(current, 'utf8');
      const first = new X509Certificate(firstPem);
      assert.match(first.subject, /CN=system:node:boot-node/);
      assert.match(first.subject, /O=system:nodes/);
      // kcm's rules: backdated 5 minutes; a short duration ends 40 s after issue.
      const notBefore = new Date(first.validFrom).getTime();
      const notAfter = new Date(first.validTo).getTime();
      assert.ok(Math.abs(Date.now() - 5 * 60_000 - notBefore) < 30_000, `notBefore ${first.validFrom}`);
      assert.ok(Math.abs(Date.now() + 40_000 - notAfter) < 30_000, `notAfter ${first.validTo}`);

      // The CSR was approved by the in-server csrapproving loop with kcm's reason and message.
      const csrs = (await api('GET', '/apis/certificates.k8s.io/v1/certificatesigningrequests')).json<{ items: Array<{ metadata: { name: string }; spec: Record<string, unknown>; status: { conditions: Array<Record<string, string>> } }> }>().items;
      const boot = csrs.find((c) => c.spec.username === 'system:bootstrap:abcdef');
      assert.ok(boot, 'the bootstrap CSR exists');
      assert.match(boot.metadata.name, /^node-csr-/);
      assert.equal(boot.spec.signerName, 'kubernetes.io/kube-apiserver-client-kubelet');
      assert.deepEqual(boot.spec.usages, ['digital signature', 'client auth']);
      const approved = boot.status.conditions.find((c) => c.type === 'Approved');
      assert.equal(approved?.reason, 'AutoApproved');
      assert.equal(approved?.message, 'Auto approving kubelet client certificate after SubjectAccessReview.');

      // The client and the written kubeconfig both act as system:node:boot-node.
      const me = await whoAmI(node.client);
      assert.deepEqual({ username: me.username, groups: me.groups }, { username: 'system:node:boot-node', groups: ['system:nodes', 'system:authenticated'] });
      const written = await loadNodeKubeconfig(config.kubeconfig);
      const fromFile = new ApiClient({ server: written.server, ...(written.ca ? { ca: written.ca } : {}), ...(written.clientCert && written.clientKey ? { clientCert: written.clientCert, clientKey: written.clientKey } : {}) });
      try {
        assert.equal((await whoAmI(fromFile)).username, 'system:node:boot-node');
        // NodeRestriction and the Node authorizer apply: it may create its own Node only.
        await fromFile.create('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'boot-node' } });
        await assert.rejects(fromFile.create('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'other-node' } }), (err: { code?: number }) => err.code === 403);
      } finally {
        fromFile.close();
      }

      // Rotation: a renewed certificate (self-approved) is swapped into the live client.
      await firstRotation;
      const second = new X509Certificate(rotated[0]?.certPem ?? '');
      assert.notEqual(second.serialNumber, first.serialNumber);
      assert.match(second.subject, /CN=system:node:boot-node/);
      assert.notEqual(await readFile(current, 'utf8'), firstPem, 'the -current.pem link points at the renewed pair');
      assert.equal((await whoAmI(node.client)).username, 'system:node:boot-node');
      const renewals = (await api('GET', '/apis/certificates.k8s.io/v1/certificatesigningrequests')).json<{ items: Array<{ spec: Record<string, unknown>; status: { conditions?: Array<Record<string, string>> } }> }>().items.filter((c) => c.spec.username === 'system:node:boot-node');
      assert.ok(renewals.length >= 1);
      assert.equal(renewals[0]?.status.conditions?.find((c) => c.type === 'Approved')?.message, 'Auto approving self kubelet client certificate after SubjectAccessReview.');
    } finally {
      await node.stop();
    }

    // A restart with the kubeconfig still valid does not bootstrap again.
    const before = (await api('GET', '/apis/certificates.k8s.io/v1/certificatesigningrequests')).json<{ items: unknown[] }>().items.length;
    const again = await buildNodeClient({ ...config, rotateCertificates: false }, 'boot-node', log);
    try {
      assert.equal((await whoAmI(again.client)).username, 'system:node:boot-node');
      assert.equal((await api('GET', '/apis/certificates.k8s.io/v1/certificatesigningrequests')).json<{ items: unknown[] }>().items.length, before);
    } finally {
      await again.stop();
    }
  });

  it('with a bootstrap token and rotateCertificates, requests a certificate at once and switches to it', { timeout: 30_000 }, async () => {
    const admin = await clientCert(ca, 'bootstrap-test-admin', ['system:masters']);
    const api = (method: string, path: string, body?: unknown) => tlsCall(server.port, server.ca, method, path, { cert: admin, ...(body !== undefined ? { body } : {}) });
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'bootstrap-token-tok123', namespace: 'kube-system' },
      type: 'bootstrap.kubernetes.io/token',
      stringData: { 'token-id': 'tok123', 'token-secret': '0123456789abcdef', 'usage-bootstrap-authentication': 'true' },
    };
    assert.equal((await api('POST', '/api/v1/namespaces/kube-system/secrets', secret)).status, 201);
    const tokenKubeconfig = join(server.dir, 'token.kubeconfig');
    await writeFile(tokenKubeconfig, kubeconfig(`https://127.0.0.1:${server.port}`, server.ca, 'token', { token: 'tok123.0123456789abcdef' }));
    let onRotated: () => void = () => undefined;
    const rotatedOnce = new Promise<void>((resolve) => (onRotated = resolve));
    const config = { ...defaultNodeAgentConfig(), kubeconfig: tokenKubeconfig, certDir: join(server.dir, 'pki-token'), rotateCertificates: true };
    const node = await buildNodeClient(config, 'token-node', log, undefined, { random: () => 0.99, onRotated: () => onRotated() });
    try {
      await rotatedOnce;
      const me = await whoAmI(node.client);
      assert.equal(me.username, 'system:node:token-node', 'the certificate replaced the token');
      assert.ok((await lstat(join(server.dir, 'pki-token', 'kubelet-client-current.pem'))).isSymbolicLink());
    } finally {
      await node.stop();
    }
  });

  it('fails a CSR the kubelet client signer refuses, with kcm\'s SignerValidationFailure', async () => {
    const admin = await clientCert(ca, 'bootstrap-test-admin', ['system:masters']);
    const api = (method: string, path: string, body?: unknown) => tlsCall(server.port, server.ca, method, path, { cert: admin, ...(body !== undefined ? { body } : {}) });
    const { createCsrPem, generateKeyPem } = await import('../../internal/nodeagent/certificate/csr.js');
    const { pem } = await createCsrPem(await generateKeyPem(), { commonName: 'system:node:x', organizations: ['not-nodes'] });
    const path = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
    assert.equal((await api('POST', path, { apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name: 'bad-org' }, spec: { request: Buffer.from(pem).toString('base64'), signerName: 'kubernetes.io/kube-apiserver-client-kubelet', usages: ['digital signature', 'client auth'] } })).status, 201);
    const now = new Date().toISOString();
    const approve = await api('PUT', `${path}/bad-org/approval`, { apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name: 'bad-org' }, spec: { request: Buffer.from(pem).toString('base64'), signerName: 'kubernetes.io/kube-apiserver-client-kubelet', usages: ['digital signature', 'client auth'] }, status: { conditions: [{ type: 'Approved', status: 'True', reason: 'Test', message: 'by hand', lastUpdateTime: now }] } });
    assert.equal(approve.status, 200, approve.text);
    const deadline = Date.now() + 10_000;
    for (;;) {
      const csr = (await api('GET', `${path}/bad-org`)).json<{ status: { certificate?: string; conditions?: Array<Record<string, string>> } }>();
      const failed = csr.status.conditions?.find((c) => c.type === 'Failed');
      if (failed) {
        assert.equal(failed.reason, 'SignerValidationFailure');
        assert.equal(failed.message, 'subject organization is not system:nodes');
        assert.equal(csr.status.certificate, undefined);
        break;
      }
      assert.ok(Date.now() < deadline, 'the signer marks the CSR Failed');
      await new Promise((r) => setTimeout(r, 200));
    }
  });
});

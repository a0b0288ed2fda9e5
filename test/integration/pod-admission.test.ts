/**
 * The pod admission plugins through the API: a pod gets its default service account with the
 * kube-api-access token volume and mounts, LimitRange defaults, its PriorityClass's priority and
 * the default toleration seconds; a pod over a LimitRange max is refused with kube's message; with
 * NodeRestriction on, a node's certificate identity cannot modify another node (nor set restricted
 * labels on its own). PodNodeSelector reads its configuration through --admission-control-config-file.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { clientCert, createCertificateAuthority, tempDir, tlsCall, writeTemp, type CertificateAuthority, type IssuedCertificate } from '../support/client-certs.js';
import { useServer } from '../support/server.js';

let clientCA: CertificateAuthority;
const fx = useServer({}, async () => {
  clientCA = await createCertificateAuthority('client-ca');
  const dir = await tempDir();
  await writeTemp(dir, 'podnodeselector.yaml', 'podNodeSelectorPluginConfig:\n  clusterDefaultNodeSelector: pool=general\n  admission: pool=general,disk=ssd\n');
  const admissionConfig = await writeTemp(
    dir,
    'admission.yaml',
    'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: PodNodeSelector\n  path: podnodeselector.yaml\n',
  );
  return [
    `--client-ca-file=${await writeTemp(dir, 'ca.crt', clientCA.certPem)}`,
    '--enable-admission-plugins=NodeRestriction,PodNodeSelector',
    `--admission-control-config-file=${admissionConfig}`,
    '--default-not-ready-toleration-seconds=120',
  ];
});

const ns = 'admission';
const pods = `/api/v1/namespaces/${ns}/pods`;
const merge = { 'content-type': 'application/merge-patch+json' };

describe('pod admission plugins', () => {
  before(async () => {
    assert.equal((await fx.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } })).status, 201);
    const pc = await fx.request('POST', '/apis/scheduling.k8s.io/v1/priorityclasses', { body: { metadata: { name: 'important' }, value: 1000 } });
    assert.equal(pc.status, 201, pc.text);
    const lr = await fx.request('POST', `/api/v1/namespaces/${ns}/limitranges`, {
      body: {
        metadata: { name: 'cpu' },
        spec: { limits: [{ type: 'Container', default: { cpu: '500m' }, defaultRequest: { cpu: '250m' }, max: { cpu: '1' } }] },
      },
    });
    assert.equal(lr.status, 201, lr.text);
  });

  it('default service account and token volume, LimitRange defaults, priority and toleration seconds', async () => {
    const res = await fx.request('POST', pods, {
      body: { metadata: { name: 'web' }, spec: { priorityClassName: 'important', containers: [{ name: 'app', image: 'nginx' }] } },
    });
    assert.equal(res.status, 201, res.text);
    const pod = res.json();
    assert.equal(pod.spec.serviceAccountName, 'default');
    const volume = pod.spec.volumes.find((v: { name: string }) => v.name.startsWith('kube-api-access-'));
    assert.match(volume.name, /^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    assert.deepEqual(volume.projected.sources, [
      { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
    ]);
    assert.deepEqual(pod.spec.containers[0].volumeMounts, [{ name: volume.name, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }]);
    assert.deepEqual(pod.spec.containers[0].resources, { limits: { cpu: '500m' }, requests: { cpu: '250m' } });
    assert.equal(pod.metadata.annotations['kubernetes.io/limit-ranger'], 'LimitRanger plugin set: cpu request for container app; cpu limit for container app');
    assert.equal(pod.spec.priority, 1000);
    assert.equal(pod.spec.preemptionPolicy, 'PreemptLowerPriority');
    assert.deepEqual(pod.spec.tolerations, [
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 120 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ]);
    assert.deepEqual(pod.spec.nodeSelector, { pool: 'general' }, 'PodNodeSelector: the cluster default from its configuration file');
  });

  it('PodNodeSelector refuses a selector outside the configured namespace whitelist', async () => {
    const res = await fx.request('POST', pods, { body: { metadata: { name: 'gpu' }, spec: { nodeSelector: { gpu: 'yes' }, containers: [{ name: 'app', image: 'nginx' }] } } });
    assert.equal(res.status, 403);
    assert.equal(res.json().message, 'pods "gpu" is forbidden: pod node label selector labels conflict with its namespace whitelist');
  });

  it('refuses a pod over the LimitRange max, an unknown PriorityClass and an account that does not exist', async () => {
    const big = await fx.request('POST', pods, {
      body: { metadata: { name: 'big' }, spec: { containers: [{ name: 'app', image: 'nginx', resources: { limits: { cpu: '2' } } }] } },
    });
    assert.equal(big.status, 403);
    assert.equal(big.json().reason, 'Forbidden');
    assert.equal(big.json().message, 'pods "big" is forbidden: maximum cpu usage per Container is 1, but limit is 2');
    const pc = await fx.request('POST', pods, { body: { metadata: { name: 'nopc' }, spec: { priorityClassName: 'nope', containers: [{ name: 'app', image: 'nginx' }] } } });
    assert.equal(pc.status, 403);
    assert.equal(pc.json().message, 'pods "nopc" is forbidden: no PriorityClass with name nope was found');
    const sa = await fx.request('POST', pods, { body: { metadata: { name: 'nosa' }, spec: { serviceAccountName: 'ghost', containers: [{ name: 'app', image: 'nginx' }] } } });
    assert.equal(sa.status, 403);
    assert.equal(sa.json().message, `pods "nosa" is forbidden: error looking up service account ${ns}/ghost: serviceaccount "ghost" not found`);
  });

  it('a node identity may modify only its own Node, and not its restricted labels', async () => {
    for (const name of ['n1', 'n2']) {
      const created = await fx.request('POST', '/api/v1/nodes', { body: { metadata: { name } } });
      assert.equal(created.status, 201, created.text);
      assert.deepEqual(created.json().spec.taints, [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }]);
    }
    const n1: IssuedCertificate = await clientCert(clientCA, 'system:node:n1', ['system:nodes']);
    const patch = (node: string, labels: Record<string, string>) =>
      tlsCall(fx.port, fx.ca, 'PATCH', `/api/v1/nodes/${node}`, { cert: n1, headers: merge, body: { metadata: { labels } } });
    const other = await patch('n2', { a: 'b' });
    assert.equal(other.status, 403);
    assert.equal(other.json().message, 'nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"');
    assert.equal((await patch('n1', { a: 'b', 'kubernetes.io/arch': 'amd64' })).status, 200);
    const restricted = await patch('n1', { 'node-restriction.kubernetes.io/pool': 'secure' });
    assert.equal(restricted.status, 403);
    assert.equal(restricted.json().message, 'nodes "n1" is forbidden: is not allowed to modify labels: node-restriction.kubernetes.io/pool');
    const plainPod = await tlsCall(fx.port, fx.ca, 'POST', pods, { cert: n1, body: { metadata: { name: 'fromnode' }, spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'x' }] } } });
    assert.equal(plainPod.status, 403);
    assert.equal(plainPod.json().message, 'pods "fromnode" is forbidden: pod does not have "kubernetes.io/config.mirror" annotation, node "n1" can only create mirror pods');
  });
});

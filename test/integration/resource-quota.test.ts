/**
 * ResourceQuota admission and the quota controller against a real etcd: refusals with kube's
 * message and 403, usage in status, usage lowered after a delete, concurrent creates never exceeding
 * a quota, scopes, dry run; and the storage/ingress class plugins and EventRateLimit.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { useServer } from '../support/server.js';

const configDir = mkdtempSync(join(tmpdir(), 'capstan-quota-'));
const admissionConfig = join(configDir, 'admission.yaml');
writeFileSync(
  admissionConfig,
  [
    'apiVersion: apiserver.config.k8s.io/v1',
    'kind: AdmissionConfiguration',
    'plugins:',
    '- name: EventRateLimit',
    '  path: eventratelimit.yaml',
    '- name: ResourceQuota',
    '  configuration:',
    '    apiVersion: apiserver.config.k8s.io/v1',
    '    kind: ResourceQuotaConfiguration',
    '    limitedResources:',
    '    - resource: persistentvolumeclaims',
    '      matchContains: [limited.storageclass.storage.k8s.io/requests.storage]',
    '',
  ].join('\n'),
);
writeFileSync(
  join(configDir, 'eventratelimit.yaml'),
  ['apiVersion: eventratelimit.admission.k8s.io/v1alpha1', 'kind: Configuration', 'limits:', '- type: Namespace', '  qps: 1', '  burst: 3', ''].join('\n'),
);

const fx = useServer({}, ['--enable-admission-plugins=EventRateLimit', `--admission-control-config-file=${admissionConfig}`]);
after(() => rmSync(configDir, { recursive: true, force: true }));

async function namespace(name: string): Promise<void> {
  const res = await fx.request('POST', '/api/v1/namespaces', { body: { metadata: { name } } });
  assert.equal(res.status, 201, res.text);
}

async function quota(ns: string, name: string, spec: Record<string, unknown>): Promise<void> {
  const res = await fx.request('POST', `/api/v1/namespaces/${ns}/resourcequotas`, { body: { metadata: { name }, spec } });
  assert.equal(res.status, 201, res.text);
}

/** Polls the quota until its status.used satisfies ok; returns it. */
async function usedWhen(ns: string, name: string, ok: (used: Record<string, string>) => boolean): Promise<Record<string, string>> {
  let last: unknown;
  for (let i = 0; i < 200; i++) {
    const q = (await fx.request('GET', `/api/v1/namespaces/${ns}/resourcequotas/${name}`)).json();
    last = q.status;
    if (q.status?.used && ok(q.status.used)) return q.status.used;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`quota ${ns}/${name} status never matched: ${JSON.stringify(last)}`);
}

function pod(name: string, extra: Record<string, unknown> = {}, resources?: Record<string, unknown>) {
  return { metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx', ...(resources ? { resources } : {}) }], ...extra } };
}

describe('ResourceQuota', () => {
  it('refuses the 4th pod under pods=3 with 403 and kube message; status shows the usage; a delete lowers it', async () => {
    await namespace('rq-a');
    await quota('rq-a', 'q', { hard: { pods: '3' } });
    await usedWhen('rq-a', 'q', (u) => u.pods === '0');
    for (const n of ['p1', 'p2', 'p3']) {
      const res = await fx.request('POST', '/api/v1/namespaces/rq-a/pods', { body: pod(n) });
      assert.equal(res.status, 201, res.text);
    }
    const res = await fx.request('POST', '/api/v1/namespaces/rq-a/pods', { body: pod('p4') });
    assert.equal(res.status, 403);
    const status = res.json();
    assert.equal(status.reason, 'Forbidden');
    assert.equal(status.message, 'pods "p4" is forbidden: exceeded quota: q, requested: pods=1, used: pods=3, limited: pods=3');
    assert.deepEqual(status.details, { name: 'p4', kind: 'pods' });
    const q = (await fx.request('GET', '/api/v1/namespaces/rq-a/resourcequotas/q')).json();
    assert.deepEqual(q.status, { hard: { pods: '3' }, used: { pods: '3' } });

    const del = await fx.request('DELETE', '/api/v1/namespaces/rq-a/pods/p1?gracePeriodSeconds=0');
    assert.equal(del.status, 200, del.text);
    await usedWhen('rq-a', 'q', (u) => u.pods === '2');
    const again = await fx.request('POST', '/api/v1/namespaces/rq-a/pods', { body: pod('p5') });
    assert.equal(again.status, 201, again.text);
  });

  it('10 concurrent creates under pods=5 admit exactly 5', async () => {
    await namespace('rq-b');
    await quota('rq-b', 'q', { hard: { pods: '5', 'count/pods': '100' } });
    await usedWhen('rq-b', 'q', (u) => u.pods === '0');
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => fx.request('POST', '/api/v1/namespaces/rq-b/pods', { body: pod(`c${i}`) })),
    );
    const codes = results.map((r) => r.status).sort();
    assert.deepEqual(codes, [201, 201, 201, 201, 201, 403, 403, 403, 403, 403], results.map((r) => r.text).join('\n'));
    const pods = (await fx.request('GET', '/api/v1/namespaces/rq-b/pods')).json();
    assert.equal(pods.items.length, 5);
    const q = (await fx.request('GET', '/api/v1/namespaces/rq-b/resourcequotas/q')).json();
    assert.deepEqual(q.status.used, { pods: '5', 'count/pods': '5' });
  });

  it('compute quotas require requests and limits, and charge them; dry run is never charged', async () => {
    await namespace('rq-c');
    await quota('rq-c', 'compute', { hard: { 'requests.cpu': '1', 'limits.cpu': '2', 'requests.memory': '1Gi' } });
    await usedWhen('rq-c', 'compute', (u) => u['requests.cpu'] === '0');
    const bare = await fx.request('POST', '/api/v1/namespaces/rq-c/pods', { body: pod('bare') });
    assert.equal(bare.status, 403);
    assert.equal(
      bare.json().message,
      'pods "bare" is forbidden: failed quota: compute: must specify limits.cpu for: c; requests.cpu for: c; requests.memory for: c',
    );
    const sized = { requests: { cpu: '600m', memory: '256Mi' }, limits: { cpu: '1' } };
    const dry = await fx.request('POST', '/api/v1/namespaces/rq-c/pods?dryRun=All', { body: pod('ok', {}, sized) });
    assert.equal(dry.status, 201, dry.text);
    const ok = await fx.request('POST', '/api/v1/namespaces/rq-c/pods', { body: pod('ok', {}, sized) });
    assert.equal(ok.status, 201, ok.text);
    const used = await usedWhen('rq-c', 'compute', (u) => u['requests.cpu'] === '600m');
    assert.deepEqual(used, { 'requests.cpu': '600m', 'limits.cpu': '1', 'requests.memory': '256Mi' });
    const more = await fx.request('POST', '/api/v1/namespaces/rq-c/pods', { body: pod('more', {}, sized) });
    assert.equal(more.status, 403);
    assert.equal(
      more.json().message,
      'pods "more" is forbidden: exceeded quota: compute, requested: requests.cpu=600m, used: requests.cpu=600m, limited: requests.cpu=1',
    );
  });

  it('scopes: BestEffort and PriorityClass quotas count only the pods in their scope', async () => {
    await namespace('rq-d');
    const pc = await fx.request('POST', '/apis/scheduling.k8s.io/v1/priorityclasses', { body: { metadata: { name: 'rq-high' }, value: 1000 } });
    assert.equal(pc.status, 201, pc.text);
    await quota('rq-d', 'besteffort', { hard: { pods: '1' }, scopes: ['BestEffort'] });
    await quota('rq-d', 'high', {
      hard: { pods: '1' },
      scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['rq-high'] }] },
    });
    await usedWhen('rq-d', 'besteffort', (u) => u.pods === '0');
    await usedWhen('rq-d', 'high', (u) => u.pods === '0');
    const sized = { requests: { cpu: '10m' }, limits: { cpu: '10m' } };
    assert.equal((await fx.request('POST', '/api/v1/namespaces/rq-d/pods', { body: pod('be1') })).status, 201);
    const be2 = await fx.request('POST', '/api/v1/namespaces/rq-d/pods', { body: pod('be2') });
    assert.equal(be2.status, 403);
    assert.match(be2.json().message, /exceeded quota: besteffort, requested: pods=1, used: pods=1, limited: pods=1$/);
    assert.equal((await fx.request('POST', '/api/v1/namespaces/rq-d/pods', { body: pod('burst1', {}, sized) })).status, 201);
    assert.equal((await fx.request('POST', '/api/v1/namespaces/rq-d/pods', { body: pod('hi1', { priorityClassName: 'rq-high' }, sized) })).status, 201);
    const hi2 = await fx.request('POST', '/api/v1/namespaces/rq-d/pods', { body: pod('hi2', { priorityClassName: 'rq-high' }, sized) });
    assert.equal(hi2.status, 403);
    assert.match(hi2.json().message, /exceeded quota: high, /);
  });

  it('services, object counts and claims are charged by their evaluators', async () => {
    await namespace('rq-e');
    await quota('rq-e', 'objects', {
      hard: { 'services.loadbalancers': '0', 'count/deployments.apps': '1', 'gold.storageclass.storage.k8s.io/requests.storage': '1Gi' },
    });
    await usedWhen('rq-e', 'objects', (u) => u['count/deployments.apps'] === '0');
    const lb = await fx.request('POST', '/api/v1/namespaces/rq-e/services', {
      body: { metadata: { name: 'lb' }, spec: { type: 'LoadBalancer', ports: [{ port: 80 }] } },
    });
    assert.equal(lb.status, 403);
    assert.equal(
      lb.json().message,
      'services "lb" is forbidden: exceeded quota: objects, requested: services.loadbalancers=1, used: services.loadbalancers=0, limited: services.loadbalancers=0',
    );
    const deploy = (name: string) => ({
      metadata: { name },
      spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
    });
    assert.equal((await fx.request('POST', '/apis/apps/v1/namespaces/rq-e/deployments', { body: deploy('d1') })).status, 201);
    const d2 = await fx.request('POST', '/apis/apps/v1/namespaces/rq-e/deployments', { body: deploy('d2') });
    assert.equal(d2.status, 403);
    assert.equal(
      d2.json().message,
      'deployments.apps "d2" is forbidden: exceeded quota: objects, requested: count/deployments.apps=1, used: count/deployments.apps=1, limited: count/deployments.apps=1',
    );
    const claim = (name: string, size: string) => ({
      metadata: { name },
      spec: { storageClassName: 'gold', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: size } } },
    });
    assert.equal((await fx.request('POST', '/api/v1/namespaces/rq-e/persistentvolumeclaims', { body: claim('small', '600Mi') })).status, 201);
    const big = await fx.request('POST', '/api/v1/namespaces/rq-e/persistentvolumeclaims', { body: claim('big', '600Mi') });
    assert.equal(big.status, 403);
    assert.match(big.json().message, /requested: gold\.storageclass\.storage\.k8s\.io\/requests\.storage=600Mi, used: gold\.storageclass\.storage\.k8s\.io\/requests\.storage=600Mi, limited: gold\.storageclass\.storage\.k8s\.io\/requests\.storage=1Gi$/);
  });
});

describe('ResourceQuota configuration', () => {
  it('limitedResources from the config file need a covering quota', async () => {
    await namespace('rq-f');
    const claim = (name: string) => ({
      metadata: { name },
      spec: { storageClassName: 'limited', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    });
    const refused = await fx.request('POST', '/api/v1/namespaces/rq-f/persistentvolumeclaims', { body: claim('a') });
    assert.equal(refused.status, 403);
    assert.equal(refused.json().message, 'persistentvolumeclaims "a" is forbidden: insufficient quota to consume: limited.storageclass.storage.k8s.io/requests.storage');
    await quota('rq-f', 'limited', { hard: { 'limited.storageclass.storage.k8s.io/requests.storage': '5Gi' } });
    await usedWhen('rq-f', 'limited', (u) => u['limited.storageclass.storage.k8s.io/requests.storage'] === '0');
    const ok = await fx.request('POST', '/api/v1/namespaces/rq-f/persistentvolumeclaims', { body: claim('a') });
    assert.equal(ok.status, 201, ok.text);
  });
});

describe('storage and ingress class plugins', () => {
  it('DefaultStorageClass gives a class-less claim the newest default class; StorageObjectInUseProtection adds the finalizers', async () => {
    const sc = (name: string, isDefault: boolean, extra: Record<string, unknown> = {}) => ({
      metadata: { name, ...(isDefault ? { annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } } : {}) },
      provisioner: 'example.com/csi',
      ...extra,
    });
    assert.equal((await fx.request('POST', '/apis/storage.k8s.io/v1/storageclasses', { body: sc('older', true) })).status, 201);
    await new Promise((r) => setTimeout(r, 1100)); // creationTimestamps have one-second resolution
    assert.equal((await fx.request('POST', '/apis/storage.k8s.io/v1/storageclasses', { body: sc('newer', true, { allowVolumeExpansion: true }) })).status, 201);
    assert.equal((await fx.request('POST', '/apis/storage.k8s.io/v1/storageclasses', { body: sc('plain', false) })).status, 201);
    await namespace('st-a');
    const claim = (name: string, spec: Record<string, unknown> = {}) => ({
      metadata: { name },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
    });
    let created: any;
    for (let i = 0; i < 50; i++) {
      const res = await fx.request('POST', '/api/v1/namespaces/st-a/persistentvolumeclaims', { body: claim(`c${i}`) });
      assert.equal(res.status, 201, res.text);
      created = res.json();
      if (created.spec.storageClassName === 'newer') break; // the informer may not show the second class yet
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(created.spec.storageClassName, 'newer');
    assert.deepEqual(created.metadata.finalizers, ['kubernetes.io/pvc-protection']);
    const explicit = (await fx.request('POST', '/api/v1/namespaces/st-a/persistentvolumeclaims', { body: claim('explicit', { storageClassName: '' }) })).json();
    assert.equal(explicit.spec.storageClassName, '');

    const pv = await fx.request('POST', '/api/v1/persistentvolumes', {
      body: { metadata: { name: 'st-pv' }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/x' } } },
    });
    assert.equal(pv.status, 201, pv.text);
    assert.deepEqual(pv.json().metadata.finalizers, ['kubernetes.io/pv-protection']);
  });

  it('PersistentVolumeClaimResize: only bound claims of an expandable class grow', async () => {
    await namespace('st-b');
    const body = (name: string, cls: string) => ({
      metadata: { name },
      spec: { storageClassName: cls, accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    });
    for (const [name, cls] of [['grows', 'newer'], ['fixed', 'plain']] as const) {
      assert.equal((await fx.request('POST', '/api/v1/namespaces/st-b/persistentvolumeclaims', { body: body(name, cls) })).status, 201);
    }
    const grow = (name: string) =>
      fx.request('PATCH', `/api/v1/namespaces/st-b/persistentvolumeclaims/${name}`, {
        rawBody: '{"spec":{"resources":{"requests":{"storage":"2Gi"}}}}',
        headers: { 'content-type': 'application/merge-patch+json' },
      });
    // A pending claim's spec cannot change at all (validation answers before admission, as in kube).
    for (const name of ['grows', 'fixed']) {
      const bound = await fx.request('PATCH', `/api/v1/namespaces/st-b/persistentvolumeclaims/${name}/status`, {
        rawBody: '{"status":{"phase":"Bound"}}',
        headers: { 'content-type': 'application/merge-patch+json' },
      });
      assert.equal(bound.status, 200, bound.text);
    }
    const fixed = await grow('fixed');
    assert.equal(fixed.status, 403);
    assert.equal(
      fixed.json().message,
      'persistentvolumeclaims "fixed" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize',
    );
    const ok = await grow('grows');
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.json().spec.resources.requests.storage, '2Gi');
  });

  it('DefaultIngressClass gives a class-less Ingress the default IngressClass', async () => {
    const ic = await fx.request('POST', '/apis/networking.k8s.io/v1/ingressclasses', {
      body: { metadata: { name: 'nginx', annotations: { 'ingressclass.kubernetes.io/is-default-class': 'true' } }, spec: { controller: 'example.com/ingress' } },
    });
    assert.equal(ic.status, 201, ic.text);
    await namespace('in-a');
    const ingress = (name: string, annotations?: Record<string, string>) => ({
      metadata: { name, ...(annotations ? { annotations } : {}) },
      spec: { defaultBackend: { service: { name: 'web', port: { number: 80 } } } },
    });
    let got: any;
    for (let i = 0; i < 50; i++) {
      const res = await fx.request('POST', '/apis/networking.k8s.io/v1/namespaces/in-a/ingresses', { body: ingress(`i${i}`) });
      assert.equal(res.status, 201, res.text);
      got = res.json();
      if (got.spec.ingressClassName) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(got.spec.ingressClassName, 'nginx');
    const annotated = (await fx.request('POST', '/apis/networking.k8s.io/v1/namespaces/in-a/ingresses', { body: ingress('legacy', { 'kubernetes.io/ingress.class': 'other' }) })).json();
    assert.equal(annotated.spec.ingressClassName, undefined);
  });
});

describe('EventRateLimit', () => {
  it('refuses events past the namespace burst with 429 and kube message', async () => {
    await namespace('ev-a');
    const event = (name: string, ns = 'ev-a') => ({
      metadata: { name },
      involvedObject: { kind: 'Pod', name: 'p', namespace: ns },
      reason: 'Test',
      message: 'm',
      type: 'Normal',
    });
    const codes: number[] = [];
    let refused: any;
    for (let i = 0; i < 5; i++) {
      const res = await fx.request('POST', '/api/v1/namespaces/ev-a/events', { body: event(`e${i}`) });
      codes.push(res.status);
      if (res.status === 422) assert.fail(res.text);
      if (res.status === 429) refused = res.json();
    }
    assert.deepEqual(codes.slice(0, 3), [201, 201, 201]);
    assert.ok(codes.includes(429), String(codes));
    assert.equal(refused.reason, 'TooManyRequests');
    assert.equal(refused.message, 'Too many requests: limit reached on type Namespace for key ev-a');
    // Another namespace has its own bucket.
    await namespace('ev-b');
    const other = await fx.request('POST', '/api/v1/namespaces/ev-b/events', { body: event('x', 'ev-b') });
    assert.equal(other.status, 201, other.text);
  });
});

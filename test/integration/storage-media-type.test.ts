/**
 * --storage-media-type: what lands in etcd (JSON, YAML or kube's Protobuf envelope), and that a
 * server started with any of them reads what the others wrote, so switching needs no migration.
 * Objects move to the new encoding on their next write.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Etcd3 } from 'etcd3';
import { parse as parseYaml } from 'yaml';
import type { KubeObject } from '../../api/meta/types.js';
import { decodeEnvelope } from '../../proto/envelope.js';
import { decodeObject, encodeObject } from '../../proto/codec.js';
import type { JsonObject } from '../../proto/types.js';
import type { StorageMediaType } from '../../internal/storage/codec.js';
import { useServer } from '../support/server.js';
import { openWatch } from '../support/watch.js';

const fx = useServer({ storageMediaType: 'application/json' });
const container = { name: 'c', image: 'busybox' };
const selector = { matchLabels: { app: 'a' } };
const template = { metadata: { labels: { app: 'a' } }, spec: { containers: [container] } };

/** One object of several kinds, with where it is stored. */
const objects: Array<{ path: string; key: string; body: KubeObject }> = [
  { path: '/api/v1/namespaces/default/configmaps', key: '/registry/configmaps/default/cm', body: { metadata: { name: 'cm', labels: { a: 'b' } }, data: { k: 'v', empty: '' } } },
  { path: '/apis/apps/v1/namespaces/default/deployments', key: '/registry/deployments/default/dep', body: { metadata: { name: 'dep' }, spec: { replicas: 0, selector, template } } },
  {
    path: '/apis/apps/v1/namespaces/default/statefulsets',
    key: '/registry/statefulsets/default/ss',
    body: { metadata: { name: 'ss' }, spec: { selector, template, volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }] } },
  },
  {
    path: '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers',
    key: '/registry/horizontalpodautoscalers/default/hpa',
    body: { metadata: { name: 'hpa' }, spec: { scaleTargetRef: { kind: 'Deployment', name: 'dep', apiVersion: 'apps/v1' }, maxReplicas: 3, targetCPUUtilizationPercentage: 50 } },
  },
  { path: '/apis/rbac.authorization.k8s.io/v1/clusterroles', key: '/registry/clusterroles/reader', body: { metadata: { name: 'reader' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] } },
];

async function raw(key: string): Promise<Buffer> {
  const client = new Etcd3({ hosts: fx.etcd.endpoint });
  try {
    const v = await client.get(key).buffer();
    assert.ok(v, `${key} is stored`);
    return v;
  } finally {
    client.close();
  }
}

function encodingOf(bytes: Buffer): StorageMediaType {
  if (bytes.subarray(0, 4).equals(Buffer.from('k8s\0', 'latin1'))) return 'application/vnd.kubernetes.protobuf';
  return bytes[0] === 0x7b ? 'application/json' : 'application/yaml';
}

async function switchTo(mediaType: StorageMediaType): Promise<void> {
  fx.options = { ...fx.options, storageMediaType: mediaType };
  await fx.restart();
}

const stripRv = (o: KubeObject): KubeObject => ({ ...o, metadata: { ...o.metadata, resourceVersion: '' } });

/**
 * Drops nulls: nested ObjectMeta comes out of Protobuf with kube's `creationTimestamp: null`
 * (a Go struct that is always encoded), while JSON storage keeps what the client sent.
 */
function withoutNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutNulls);
  if (typeof v !== 'object' || v === null) return v;
  const out: Record<string, unknown> = {};
  for (const [k, e] of Object.entries(v)) if (e !== null && e !== undefined) out[k] = withoutNulls(e);
  return out;
}
const snapshot = new Map<string, KubeObject>();

describe('--storage-media-type', () => {
  it('JSON: objects are stored as JSON without resourceVersion', async () => {
    for (const o of objects) {
      const res = await fx.request('POST', o.path, { body: o.body });
      assert.equal(res.status, 201, res.text);
      const bytes = await raw(o.key);
      assert.equal(encodingOf(bytes), 'application/json');
      assert.equal(JSON.parse(bytes.toString()).metadata.resourceVersion, undefined);
      snapshot.set(o.key, (await fx.request('GET', `${o.path}/${o.body.metadata.name}`)).json());
    }
  });

  it('a Protobuf server reads the JSON objects unchanged, and rewrites them as kube would store them', async () => {
    await switchTo('application/vnd.kubernetes.protobuf');
    for (const o of objects) {
      const item = `${o.path}/${o.body.metadata.name}`;
      const got = (await fx.request('GET', item)).json();
      assert.deepEqual(withoutNulls(got), withoutNulls(snapshot.get(o.key)), `${o.key} reads the same`);
      assert.equal(encodingOf(await raw(o.key)), 'application/json', 'a read does not rewrite');
      const patched = await fx.request('PATCH', item, { rawBody: '{"metadata":{"labels":{"moved":"pb"}}}', headers: { 'content-type': 'application/merge-patch+json' } });
      assert.equal(patched.status, 200, patched.text);
      const bytes = await raw(o.key);
      assert.equal(encodingOf(bytes), 'application/vnd.kubernetes.protobuf', `${o.key} moved to Protobuf on write`);
      const envelope = decodeEnvelope(bytes);
      const stored = decodeObject(bytes) as unknown as KubeObject;
      assert.equal(stored.metadata.resourceVersion, undefined);
      assert.equal(stored.metadata.labels?.moved, 'pb');
      // The envelope names the storage version (HPAs are stored as autoscaling/v2, as in kube).
      if (o.key.includes('horizontalpodautoscalers')) assert.equal(envelope.apiVersion, 'autoscaling/v2');
      // The bytes are the canonical encoding of the stored object (golden tests pin it to kube's).
      assert.ok(Buffer.from(encodeObject(stored as unknown as JsonObject)).equals(bytes), `${o.key} bytes are canonical`);
      const after = (await fx.request('GET', item)).json();
      const before = snapshot.get(o.key) as KubeObject;
      assert.deepEqual(
        withoutNulls(stripRv({ ...after, metadata: { ...after.metadata, labels: undefined, managedFields: undefined } })),
        withoutNulls(stripRv({ ...before, metadata: { ...before.metadata, labels: undefined, managedFields: undefined } })),
        `${o.key}: nothing but the label changed`,
      );
      assert.deepEqual(after.metadata.labels, { ...before.metadata.labels, moved: 'pb' });
      snapshot.set(o.key, after);
    }
  });

  it('a JSON server reads the Protobuf objects; a YAML server writes YAML; all stay readable', async () => {
    await switchTo('application/json');
    for (const o of objects) {
      assert.deepEqual((await fx.request('GET', `${o.path}/${o.body.metadata.name}`)).json(), snapshot.get(o.key), `${o.key} reads the same`);
    }
    await switchTo('application/yaml');
    const [first, ...rest] = objects;
    assert.ok(first);
    const item = `${first.path}/${first.body.metadata.name}`;
    await fx.request('PATCH', item, { rawBody: '{"data":{"k":"yaml"}}', headers: { 'content-type': 'application/merge-patch+json' } });
    const bytes = await raw(first.key);
    assert.equal(encodingOf(bytes), 'application/yaml');
    assert.equal(parseYaml(bytes.toString()).data.k, 'yaml');
    await switchTo('application/vnd.kubernetes.protobuf');
    assert.equal((await fx.request('GET', item)).json().data.k, 'yaml');
    const list = (await fx.request('GET', '/api/v1/namespaces/default/configmaps')).json();
    assert.ok(list.items.some((c: KubeObject) => c.metadata.name === 'cm'));
    for (const o of rest) assert.equal((await fx.request('GET', `${o.path}/${o.body.metadata.name}`)).status, 200);
  });

  it('a watch decodes events whatever encoding the object had before', async () => {
    const path = '/api/v1/namespaces/default/configmaps';
    const rv = (await fx.request('GET', path)).json().metadata.resourceVersion;
    const w = await openWatch(fx, `${path}?watch=true&resourceVersion=${rv}`);
    await fx.request('PATCH', `${path}/cm`, { rawBody: '{"data":{"k":"watched"}}', headers: { 'content-type': 'application/merge-patch+json' } });
    const ev = await w.next();
    assert.equal(ev.type, 'MODIFIED');
    assert.equal(ev.object.data.k, 'watched');
    w.close();
  });

  it('undecodable stored bytes are an error for that object only', async () => {
    const client = new Etcd3({ hosts: fx.etcd.endpoint });
    try {
      await client.put('/registry/configmaps/default/broken').value(Buffer.from('k8s\0\x0a\xff'));
    } finally {
      client.close();
    }
    const res = await fx.request('GET', '/api/v1/namespaces/default/configmaps/broken');
    assert.equal(res.status, 500);
    assert.equal(res.json().kind, 'Status');
    assert.equal((await fx.request('GET', '/api/v1/namespaces/default/configmaps/cm')).status, 200);
  });
});

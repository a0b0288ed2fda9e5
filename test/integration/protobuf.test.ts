/**
 * Kubernetes Protobuf over HTTP for every built-in kind: an object read as Protobuf decodes to the
 * same JSON the server serves, sending those bytes back changes nothing, a Protobuf POST creates
 * what the JSON POST creates, lists and errors come as Protobuf, and a Protobuf watch decodes.
 */
import assert from 'node:assert/strict';
import { request as httpsRequest } from 'node:https';
import { describe, it } from 'node:test';
import { generatedResources } from '../../api/gen/resources.js';
import type { KubeObject } from '../../api/meta/types.js';
import { resourceStubs } from '../../internal/registry/builtin-stubs.js';
import { decodeObject, encodeObject } from '../../proto/codec.js';
import type { JsonObject } from '../../proto/types.js';
import { decodeWatchEvent } from '../../proto/watch-event.js';
import { useServer, type TestResponse } from '../support/server.js';
import { everyBuiltinAPI } from '../support/all-apis.js';

// Every built-in resource of 1.33, alpha and beta included.
const fx = useServer(everyBuiltinAPI());
const pb = 'application/vnd.kubernetes.protobuf';

const container = { name: 'c', image: 'busybox' };
/** Minimal objects of the resources the stubs do not cover. */
const extraStubs: Record<string, KubeObject> = {
  configmaps: { metadata: { name: 'x' }, data: { a: 'b' } },
  secrets: { metadata: { name: 'x' }, stringData: { a: 'b' } },
  serviceaccounts: { metadata: { name: 'x' } },
  pods: { metadata: { name: 'x' }, spec: { containers: [container] } },
  services: { metadata: { name: 'x' }, spec: { ports: [{ port: 80 }] } },
  nodes: { metadata: { name: 'x' } },
  endpoints: { metadata: { name: 'x' }, subsets: [{ addresses: [{ ip: '192.0.2.1' }], ports: [{ port: 80 }] }] },
  events: { metadata: { name: 'x' }, involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' }, reason: 'R', message: 'm' },
  leases: { metadata: { name: 'x' }, spec: { holderIdentity: 'me' } },
  deployments: {
    metadata: { name: 'x' },
    spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [container] } } },
  },
  namespaces: { metadata: { name: 'x-pb' } },
};

function pathFor(group: string, version: string, resource: string, namespaced: boolean, name?: string): string {
  const base = group ? `/apis/${group}/${version}` : `/api/${version}`;
  return `${base}${namespaced ? '/namespaces/default' : ''}/${resource}${name ? `/${name}` : ''}`;
}

/**
 * The object without Go zero values (null, "", {}, []): a Protobuf message carries the zero
 * values of Go's non-pointer fields that JSON written from a partial object leaves out, and drops
 * empty strings, so both sides are compared without them. Nothing set to a real value is lost.
 */
function withoutZeroes(v: unknown, nested = false): unknown {
  if (Array.isArray(v)) return v.map((x) => withoutZeroes(x, true));
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  // An embedded object's apiVersion and kind (e.g. a StatefulSet's claim templates) are not in its
  // Protobuf message; kube's JSON shows them only because its conversion writes them.
  const embedded = nested && 'metadata' in v;
  for (const [k, x] of Object.entries(v)) {
    if (embedded && (k === 'apiVersion' || k === 'kind')) continue;
    const y = withoutZeroes(x, true);
    if (y === null || y === '' || y === 0 || y === false || (typeof y === 'object' && Object.keys(y as object).length === 0)) continue;
    out[k] = y;
  }
  return out;
}

function stripVolatile(o: KubeObject): KubeObject {
  const c = structuredClone(o);
  delete c.metadata.managedFields;
  return c;
}

describe('Protobuf for every built-in kind', () => {
  const seen = new Set<string>();
  for (const r of generatedResources) {
    const key = `${r.group}/${r.resource}`;
    const stub = resourceStubs[r.resource]?.obj ?? extraStubs[r.resource];
    if (!stub || seen.has(key)) continue;
    if (r.group === 'events.k8s.io') continue;
    seen.add(key);
    const version = resourceStubs[r.resource]?.version ?? r.version;
    if (version !== r.version) continue;
    it(`${r.kind} (${r.group || 'core'}/${r.version})`, async () => {
      const collection = pathFor(r.group, r.version, r.resource, r.namespaced);
      const body = structuredClone(stub) as KubeObject;
      const created = await fx.request('POST', collection, { body });
      assert.equal(created.status, 201, `${r.kind}: ${created.text.slice(0, 300)}`);
      const name = created.json().metadata.name as string;
      const item = pathFor(r.group, r.version, r.resource, r.namespaced, name);
      // In-server controllers (the quota controller on ResourceQuota status, ...) may write the
      // object meanwhile: compare reads of the same resourceVersion, and retry a PUT that loses.
      const readBoth = async (): Promise<{ asJson: KubeObject; asPb: TestResponse }> => {
        for (let attempt = 0; ; attempt++) {
          const asJson = (await fx.request('GET', item)).json() as KubeObject;
          const asPb = await fx.request('GET', item, { headers: { accept: pb } });
          const pbVersion = asPb.status === 200 ? (decodeObject(asPb.body) as KubeObject).metadata?.resourceVersion : undefined;
          if (pbVersion === asJson.metadata.resourceVersion || attempt >= 20) return { asJson, asPb };
          await new Promise((r) => setTimeout(r, 100));
        }
      };
      let { asJson, asPb } = await readBoth();
      assert.equal(asPb.status, 200);
      assert.equal(asPb.headers['content-type'], pb);
      assert.deepEqual([...asPb.body.subarray(0, 4)], [0x6b, 0x38, 0x73, 0x00], 'the k8s\\0 magic');
      assert.deepEqual(withoutZeroes(decodeObject(asPb.body)), withoutZeroes(asJson), 'Protobuf decodes to the JSON the server serves');
      // Sending the Protobuf back stores the same object (the PUT's answer is what it stored).
      let put = await fx.request('PUT', item, { rawBody: asPb.body, headers: { 'content-type': pb } });
      for (let attempt = 0; put.status === 409 && attempt < 10; attempt++) {
        ({ asJson, asPb } = await readBoth());
        put = await fx.request('PUT', item, { rawBody: asPb.body, headers: { 'content-type': pb } });
      }
      assert.equal(put.status, 200, put.text.slice(0, 300));
      const after = put.json() as KubeObject;
      assert.deepEqual(
        withoutZeroes(stripVolatile({ ...after, metadata: { ...after.metadata, resourceVersion: '' } })),
        withoutZeroes(stripVolatile({ ...asJson, metadata: { ...asJson.metadata, resourceVersion: '' } })),
        'nothing set is lost on the way through Protobuf',
      );
      // The list comes as Protobuf too.
      const list = await fx.request('GET', collection, { headers: { accept: pb } });
      assert.equal(list.status, 200);
      const decodedList = decodeObject(list.body) as { kind: string; items: unknown[] };
      assert.equal(decodedList.kind, `${r.kind}List`);
      assert.ok(decodedList.items.length >= 1);
    });
  }
});

describe('Protobuf requests, errors and watches', () => {
  it('a Protobuf POST creates what the JSON POST creates', async () => {
    const cms = '/api/v1/namespaces/default/configmaps';
    const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'via-pb', labels: { a: 'b' } }, data: { k: 'v' }, binaryData: { bin: 'AQID' } };
    const viaPb = await fx.request('POST', cms, { rawBody: Buffer.from(encodeObject(obj as JsonObject)), headers: { 'content-type': pb } });
    assert.equal(viaPb.status, 201, viaPb.text);
    const viaJson = await fx.request('POST', cms, { body: { ...obj, metadata: { ...obj.metadata, name: 'via-json' } } });
    const a = viaPb.json();
    const b = viaJson.json();
    for (const x of [a, b]) {
      delete x.metadata.name;
      delete x.metadata.uid;
      delete x.metadata.resourceVersion;
      delete x.metadata.creationTimestamp;
      delete x.metadata.managedFields;
    }
    assert.deepEqual(a, b);
  });

  it('errors are Protobuf Status when the client asks for Protobuf only', async () => {
    const res = await fx.request('GET', '/api/v1/namespaces/default/configmaps/missing', { headers: { accept: pb } });
    assert.equal(res.status, 404);
    assert.equal(res.headers['content-type'], pb);
    const status = decodeObject(res.body) as { kind: string; reason: string; code: number };
    assert.equal(status.kind, 'Status');
    assert.equal(status.reason, 'NotFound');
    assert.equal(status.code, 404);
  });

  it('a Protobuf watch is length-prefixed WatchEvent frames', async () => {
    const cms = '/api/v1/namespaces/default/configmaps';
    const rv = (await fx.request('GET', cms)).json().metadata.resourceVersion;
    const frames: Array<{ type: string; object: JsonObject }> = [];
    await new Promise<void>((resolve, reject) => {
      const req = httpsRequest(
        { host: '127.0.0.1', port: fx.port, path: `${cms}?watch=true&resourceVersion=${rv}`, ca: fx.ca, servername: 'localhost', headers: { accept: `${pb};stream=watch` } },
        (res) => {
          assert.equal(res.headers['content-type'], `${pb};stream=watch`);
          let buf = Buffer.alloc(0);
          res.on('data', (chunk: Buffer) => {
            buf = Buffer.concat([buf, chunk]);
            while (buf.length >= 4 && buf.length >= 4 + buf.readUInt32BE(0)) {
              const n = buf.readUInt32BE(0);
              frames.push(decodeWatchEvent(buf.subarray(4, 4 + n)) as { type: string; object: JsonObject });
              buf = buf.subarray(4 + n);
              if (frames.length === 2) {
                req.destroy();
                resolve();
              }
            }
          });
        },
      );
      req.on('error', (e) => ((e as NodeJS.ErrnoException).code === 'ECONNRESET' ? resolve() : reject(e)));
      req.end();
      setTimeout(async () => {
        await fx.request('POST', cms, { body: { metadata: { name: 'watched-pb' } } });
        await fx.request('DELETE', `${cms}/watched-pb`);
      }, 100);
    });
    assert.deepEqual(frames.map((f) => [f.type, (f.object as { metadata: { name: string } }).metadata.name]), [['ADDED', 'watched-pb'], ['DELETED', 'watched-pb']]);
    assert.equal(frames[0]?.object.kind, 'ConfigMap');
  });
});

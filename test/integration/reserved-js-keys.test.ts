/**
 * Keys that name JavaScript's own machinery ("__proto__", "constructor", "prototype") are user data
 * like any other: a ConfigMap data key "__proto__" and an object-valued "__proto__" in a custom
 * resource's unknown fields are stored as own keys and come back as sent through create, get (JSON
 * and Protobuf, from JSON and Protobuf storage), list, watch and every patch type, and no object's
 * prototype is ever set from a request (a trap on Object.prototype's __proto__ setter records it).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeObject, encodeObject } from '../../proto/codec.js';
import { createEstablishedCrd } from '../support/crds.js';
import { useServer, type TestResponse } from '../support/server.js';
import { openWatch, type WatchStream } from '../support/watch.js';

const fx = useServer();
const cms = '/api/v1/namespaces/default/configmaps';
const things = '/apis/keys.example.com/v1/namespaces/default/things';
const json = { 'content-type': 'application/json' };
const merge = { 'content-type': 'application/merge-patch+json' };
const strategic = { 'content-type': 'application/strategic-merge-patch+json' };
const jsonPatch = { 'content-type': 'application/json-patch+json' };
const apply = { 'content-type': 'application/apply-patch+yaml' };

// Every call of the __proto__ setter on a plain object with a plain value while the tests run:
// that is an assignment `o[key] = v` that took a user key for the prototype.
const protoSetter = Object.getOwnPropertyDescriptor(Object.prototype, '__proto__') as PropertyDescriptor;
const protoSets: string[] = [];
before(() => {
  Object.defineProperty(Object.prototype, '__proto__', {
    ...protoSetter,
    set(this: object, v: unknown) {
      const plain = (o: unknown): boolean => typeof o === 'object' && o !== null && Object.getPrototypeOf(o) === Object.prototype;
      if (plain(this) && (plain(v) || typeof v !== 'object')) protoSets.push(new Error('__proto__ set').stack ?? '');
      protoSetter.set?.call(this, v);
    },
  });
});
after(() => Object.defineProperty(Object.prototype, '__proto__', protoSetter));

/** Asserts o has an own enumerable key and the plain Object prototype. */
function assertOwn(o: unknown, key: string, value: unknown, what: string): void {
  assert.ok(typeof o === 'object' && o !== null, `${what}: an object`);
  assert.equal(Object.getPrototypeOf(o), Object.prototype, `${what}: prototype unchanged`);
  assert.ok(Object.keys(o).includes(key), `${what}: own key ${key} in ${JSON.stringify(o)}`);
  assert.deepEqual(Object.getOwnPropertyDescriptor(o, key)?.value, value, `${what}: ${key}`);
}

function ok(res: TestResponse, status: number, what: string): any {
  assert.equal(res.status, status, `${what}: ${res.text.slice(0, 400)}`);
  return res.json();
}

async function nextObject(w: WatchStream, type: string): Promise<any> {
  const ev = await w.next(5000);
  assert.equal(ev?.type, type, JSON.stringify(ev));
  return ev.object;
}

describe('keys named __proto__, constructor and prototype', () => {
  it('a ConfigMap data key "__proto__" survives create, get, list, watch and every patch type', async () => {
    const w = await openWatch(fx, `${cms}?watch=1&fieldSelector=metadata.name%3Dproto`);
    try {
      const body = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"proto","labels":{"constructor":"c","prototype":"p"}},"data":{"__proto__":"x","constructor":"c","a":"b"}}';
      const created = ok(await fx.request('POST', cms, { rawBody: body, headers: json }), 201, 'create');
      assertOwn(created.data, '__proto__', 'x', 'create answer');
      assertOwn(created.data, 'constructor', 'c', 'create answer');
      assertOwn(created.metadata.labels, 'constructor', 'c', 'create answer labels');
      assertOwn((await nextObject(w, 'ADDED')).data, '__proto__', 'x', 'watch ADDED');
      assertOwn(ok(await fx.request('GET', `${cms}/proto`), 200, 'get').data, '__proto__', 'x', 'get');
      const pb = await fx.request('GET', `${cms}/proto`, { headers: { accept: 'application/vnd.kubernetes.protobuf' } });
      assert.equal(pb.status, 200);
      assertOwn((decodeObject(pb.body) as any).data, '__proto__', 'x', 'get as Protobuf');
      const list = ok(await fx.request('GET', `${cms}?fieldSelector=metadata.name%3Dproto`), 200, 'list');
      assertOwn(list.items[0].data, '__proto__', 'x', 'list');

      const steps: Array<[string, Record<string, string>, string, string]> = [
        ['merge patch', merge, '{"data":{"__proto__":"m"}}', 'm'],
        ['strategic merge patch', strategic, '{"data":{"__proto__":"s"}}', 's'],
        ['JSON patch', jsonPatch, '[{"op":"test","path":"/data/__proto__","value":"s"},{"op":"replace","path":"/data/__proto__","value":"j"}]', 'j'],
        ['apply', apply, '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"proto"},"data":{"__proto__":"y"}}', 'y'],
        ['apply as YAML', apply, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: proto}\ndata: {__proto__: z}\n', 'z'],
      ];
      for (const [what, headers, patch, want] of steps) {
        const q = headers === apply ? '?fieldManager=keys&force=true' : '';
        const patched = ok(await fx.request('PATCH', `${cms}/proto${q}`, { rawBody: patch, headers }), 200, what);
        assertOwn(patched.data, '__proto__', want, what);
        assertOwn(patched.data, 'a', 'b', what);
        assertOwn((await nextObject(w, 'MODIFIED')).data, '__proto__', want, `${what} watch`);
        if (headers === apply) {
          const mine = patched.metadata.managedFields.find((m: any) => m.manager === 'keys');
          assertOwn(mine.fieldsV1['f:data'], 'f:__proto__', {}, `${what} managed fields`);
        }
      }
      const put = { ...ok(await fx.request('GET', `${cms}/proto`), 200, 'get'), data: JSON.parse('{"__proto__":"u"}') };
      assertOwn(ok(await fx.request('PUT', `${cms}/proto`, { body: put }), 200, 'update').data, '__proto__', 'u', 'update');
    } finally {
      w.close();
    }
  });

  it('Protobuf storage and JSON storage both keep the key', async () => {
    fx.options = { ...fx.options, storageMediaType: 'application/json' };
    await fx.restart();
    try {
      ok(await fx.request('POST', cms, { rawBody: '{"metadata":{"name":"proto-json"},"data":{"__proto__":"x"}}', headers: json }), 201, 'create');
      assertOwn(ok(await fx.request('GET', `${cms}/proto-json`), 200, 'get').data, '__proto__', 'x', 'JSON storage');
      assertOwn(ok(await fx.request('GET', `${cms}/proto`), 200, 'get').data, '__proto__', 'u', 'Protobuf storage read by a JSON server');
    } finally {
      fx.options = { ...fx.options, storageMediaType: 'application/vnd.kubernetes.protobuf' };
      await fx.restart();
    }
    assertOwn(ok(await fx.request('GET', `${cms}/proto-json`), 200, 'get').data, '__proto__', 'x', 'JSON storage read by a Protobuf server');
  });

  it('a Protobuf and a YAML request body carry the key too', async () => {
    const cm = JSON.parse('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"proto-pb"},"data":{"__proto__":"p"}}');
    const pb = 'application/vnd.kubernetes.protobuf';
    const res = await fx.request('POST', cms, { rawBody: Buffer.from(encodeObject(cm)), headers: { 'content-type': pb, accept: pb } });
    assert.equal(res.status, 201, res.text);
    assertOwn((decodeObject(res.body) as any).data, '__proto__', 'p', 'Protobuf create answer');
    const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: proto-yaml\ndata:\n  __proto__: "q"\n';
    const created = ok(await fx.request('POST', cms, { rawBody: yaml, headers: { 'content-type': 'application/yaml' } }), 201, 'YAML create');
    assertOwn(created.data, '__proto__', 'q', 'YAML create answer');
  });

  it('a label key "__proto__" is refused as kube refuses it (not a qualified name)', async () => {
    const res = await fx.request('POST', cms, { rawBody: '{"metadata":{"name":"bad-label","labels":{"__proto__":"x"}}}', headers: json });
    assert.equal(res.status, 422, res.text);
    assert.match(res.json().message, /metadata\.labels: Invalid value: "__proto__"/);
    const ann = await fx.request('POST', cms, { rawBody: '{"metadata":{"name":"bad-ann","annotations":{"__proto__":"x"}}}', headers: json });
    assert.equal(ann.status, 422, ann.text);
    assert.match(ann.json().message, /metadata\.annotations: Invalid value: "__proto__"/);
  });

  it('an object-valued "__proto__" in a custom resource is stored as an own key, never as a prototype', async () => {
    await createEstablishedCrd(fx, {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'things.keys.example.com' },
      spec: {
        group: 'keys.example.com',
        scope: 'Namespaced',
        names: { plural: 'things', singular: 'thing', kind: 'Thing', listKind: 'ThingList' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } } }],
      },
    });
    const w = await openWatch(fx, `${things}?watch=1`);
    try {
      const body = '{"apiVersion":"keys.example.com/v1","kind":"Thing","metadata":{"name":"t"},"spec":{"__proto__":{"x":"y"},"prototype":{"constructor":{"a":1}}}}';
      const created = ok(await fx.request('POST', things, { rawBody: body, headers: json }), 201, 'create');
      assertOwn(created.spec, '__proto__', { x: 'y' }, 'create answer');
      assertOwn(created.spec.prototype, 'constructor', { a: 1 }, 'create answer');
      assertOwn((await nextObject(w, 'ADDED')).spec, '__proto__', { x: 'y' }, 'watch ADDED');
      assertOwn(ok(await fx.request('GET', `${things}/t`), 200, 'get').spec, '__proto__', { x: 'y' }, 'get');
      assertOwn(ok(await fx.request('GET', things), 200, 'list').items[0].spec, '__proto__', { x: 'y' }, 'list');
      const steps: Array<[string, Record<string, string>, string, unknown]> = [
        ['merge patch', merge, '{"spec":{"__proto__":{"z":"w"}}}', { x: 'y', z: 'w' }],
        ['JSON patch', jsonPatch, '[{"op":"add","path":"/spec/__proto__/q","value":{"__proto__":1}}]', JSON.parse('{"x":"y","z":"w","q":{"__proto__":1}}')],
        ['apply', apply, '{"apiVersion":"keys.example.com/v1","kind":"Thing","metadata":{"name":"t"},"spec":{"__proto__":{"k":"v"}}}', JSON.parse('{"x":"y","z":"w","q":{"__proto__":1},"k":"v"}')],
      ];
      for (const [what, headers, patch, want] of steps) {
        const q = headers === apply ? '?fieldManager=keys' : '';
        const patched = ok(await fx.request('PATCH', `${things}/t${q}`, { rawBody: patch, headers }), 200, what);
        assertOwn(patched.spec, '__proto__', want, what);
        assertOwn((await nextObject(w, 'MODIFIED')).spec, '__proto__', want, `${what} watch`);
      }
    } finally {
      w.close();
    }
  });

  it('a custom resource schema may name a property "__proto__": it is validated and served like any other', async () => {
    const props = JSON.parse('{"__proto__":{"type":"object","properties":{"x":{"type":"string"}}}}');
    await createEstablishedCrd(fx, {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'typed.keys.example.com' },
      spec: {
        group: 'keys.example.com',
        scope: 'Namespaced',
        names: { plural: 'typed', singular: 'typed', kind: 'Typed', listKind: 'TypedList' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: props } } } } }],
      },
    });
    const typed = '/apis/keys.example.com/v1/namespaces/default/typed';
    const good = ok(await fx.request('POST', typed, { rawBody: '{"apiVersion":"keys.example.com/v1","kind":"Typed","metadata":{"name":"g"},"spec":{"__proto__":{"x":"y","dropped":1}}}', headers: json }), 201, 'create');
    assertOwn(good.spec, '__proto__', { x: 'y' }, 'pruned to the schema');
    const bad = await fx.request('POST', typed, { rawBody: '{"apiVersion":"keys.example.com/v1","kind":"Typed","metadata":{"name":"b"},"spec":{"__proto__":{"x":1}}}', headers: json });
    assert.equal(bad.status, 422, bad.text);
    assert.match(bad.json().message, /spec\.__proto__\.x: Invalid value: "integer": spec\.__proto__\.x in body must be of type string/);
  });

  it('an object-valued "__proto__" annotation in a Deployment is refused as any object-valued annotation is', async () => {
    const deploys = '/apis/apps/v1/namespaces/default/deployments';
    const template = (annotations: string): string =>
      `{"metadata":{"labels":{"a":"b"},"annotations":${annotations}},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`;
    const create = (name: string, annotations: string): string =>
      `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"${name}"},"spec":{"selector":{"matchLabels":{"a":"b"}},"template":${template(annotations)}}}`;
    ok(await fx.request('POST', deploys, { rawBody: create('d', '{}'), headers: json }), 201, 'create');
    const cases: Array<[string, string, Record<string, string>, (key: string) => string]> = [
      ['create', 'POST', json, (key) => create('d2', `{"${key}":{"x":"y"}}`)],
      ['merge patch', 'PATCH', merge, (key) => `{"spec":{"template":{"metadata":{"annotations":{"${key}":{"x":"y"}}}}}}`],
      ['strategic merge patch', 'PATCH', strategic, (key) => `{"spec":{"template":{"metadata":{"annotations":{"${key}":{"x":"y"}}}}}}`],
      ['JSON patch', 'PATCH', jsonPatch, (key) => `[{"op":"add","path":"/spec/template/metadata/annotations/${key}","value":{"x":"y"}}]`],
    ];
    for (const [what, method, headers, body] of cases) {
      const path = method === 'POST' ? deploys : `${deploys}/d`;
      const plain = await fx.request(method, path, { rawBody: body('k'), headers });
      const proto = await fx.request(method, path, { rawBody: body('__proto__'), headers });
      assert.ok(plain.status >= 400 && plain.status < 500, `${what} with key k: ${plain.status} ${plain.text.slice(0, 300)}`);
      assert.equal(proto.status, plain.status, `${what}: __proto__ answers as k does: ${proto.text.slice(0, 300)}`);
      assert.equal(proto.json().reason, plain.json().reason, what);
    }
    const after = ok(await fx.request('GET', `${deploys}/d`), 200, 'get');
    assert.deepEqual(after.spec.template.metadata.annotations ?? {}, {}, 'nothing was stored');
  });

  it('no prototype was set from request data, and Object.prototype is untouched', () => {
    assert.deepEqual(protoSets, [], protoSets.join('\n\n'));
    assert.equal(({} as Record<string, unknown>).x, undefined);
    assert.deepEqual(Object.keys(Object.prototype), []);
  });
});

import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { StatusError } from '../../apierrors/status-error.js';
import type { RestStorage } from '../../registry/interface.js';
import type { ResourceRegistration } from '../../registry/registration.js';
import { ApiInstaller } from '../installer.js';
import { gzipThresholdBytes } from '../negotiation/writer.js';
import { OpenApiV2Handler, pathTarget, type SwaggerDocument } from './v2.js';

const stub = async (): Promise<never> => ({}) as never;
const allVerbs: RestStorage = { get: stub, list: stub, watch: stub, create: stub, update: stub, delete: stub, deleteCollection: async () => [] };

function registration(group: string, version: string, resource: string, main: RestStorage, subresources: Record<string, RestStorage> = {}, namespaced = true): ResourceRegistration {
  return { group, version, resource, namespaced, main, subresources, selectableFields: { extra: [], style: 'meta' } };
}

// configmaps, pods, nodes and services with every verb; deployments read-only (get, list) with a status
// subresource. Those make the JSON document large enough to be gzipped.
const installer = new ApiInstaller([
  registration('', 'v1', 'configmaps', allVerbs),
  registration('', 'v1', 'pods', allVerbs),
  registration('', 'v1', 'nodes', allVerbs, {}, false),
  registration('', 'v1', 'services', allVerbs),
  registration('apps', 'v1', 'deployments', { get: stub, list: stub }, { status: { get: stub, update: stub } }),
]);
const handler = new OpenApiV2Handler(installer);
const served = JSON.parse(handler.jsonBytes.toString('utf8')) as SwaggerDocument;

describe('OpenAPI v2 filtering', () => {
  it('keeps every path form of a served resource', () => {
    for (const p of [
      '/api/v1/namespaces/{namespace}/configmaps',
      '/api/v1/namespaces/{namespace}/configmaps/{name}',
      '/api/v1/configmaps',
      '/api/v1/watch/configmaps',
      '/api/v1/watch/namespaces/{namespace}/configmaps',
      '/api/v1/watch/namespaces/{namespace}/configmaps/{name}',
      '/apis/apps/v1/namespaces/{namespace}/deployments/{name}/status',
    ]) {
      assert.ok(served.paths[p], `${p} missing`);
    }
  });

  it('drops unserved resources, subresources, group versions and non-resource paths', () => {
    for (const p of [
      '/api/v1/namespaces/{namespace}/secrets/{name}',
      '/api/v1/namespaces/{namespace}/pods/{name}/exec',
      '/api/v1/namespaces/{namespace}/pods/{name}/status',
      '/api/v1/nodes/{name}/proxy/{path}',
      '/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale',
      '/apis/apps/v1/namespaces/{namespace}/statefulsets',
      '/apis/batch/v1/jobs',
      '/apis/batch/',
      '/apis/batch/v1/',
      '/logs/',
      '/.well-known/openid-configuration/',
    ]) {
      assert.equal(served.paths[p], undefined, `${p} kept`);
    }
    // The watch of a resource without watch is dropped along with its verb.
    assert.equal(served.paths['/apis/apps/v1/watch/namespaces/{namespace}/deployments'], undefined);
  });

  it('keeps the discovery roots of served groups and versions and /version/', () => {
    for (const p of ['/api/', '/api/v1/', '/apis/', '/apis/apps/', '/apis/apps/v1/', '/version/']) assert.ok(served.paths[p], `${p} missing`);
  });

  it('keeps only the operations whose verb the resource implements', () => {
    const item = served.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}'] as Record<string, unknown>;
    assert.ok(item.get);
    assert.ok(item.parameters);
    for (const m of ['put', 'patch', 'delete']) assert.equal(item[m], undefined, `${m} kept`);
    const status = served.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}/status'] as Record<string, unknown>;
    assert.deepEqual(Object.keys(status).filter((k) => k !== 'parameters').sort(), ['get', 'patch', 'put']);
    const cm = served.paths['/api/v1/namespaces/{namespace}/configmaps/{name}'] as Record<string, unknown>;
    assert.deepEqual(Object.keys(cm).filter((k) => k !== 'parameters').sort(), ['delete', 'get', 'patch', 'put']);
  });

  it('keeps the definitions reachable from kept paths and nothing else', () => {
    const defs = served.definitions ?? {};
    assert.ok(defs['io.k8s.api.core.v1.ConfigMap']);
    assert.ok(defs['io.k8s.api.apps.v1.Deployment']);
    assert.ok(defs['io.k8s.api.core.v1.Container'], 'transitive $ref not followed');
    assert.ok(defs['io.k8s.apimachinery.pkg.apis.meta.v1.Patch'], 'definition reached through a kept parameter missing');
    assert.equal(defs['io.k8s.api.core.v1.Secret'], undefined);
    assert.equal(defs['io.k8s.api.autoscaling.v1.Scale'], undefined, 'reachable only from the dropped scale path');
    assert.equal(defs['io.k8s.api.batch.v1.Job'], undefined);
    // Every $ref in the served document resolves, and every kept definition and parameter is used.
    const text = handler.jsonBytes.toString('utf8');
    const defRefs = new Set([...text.matchAll(/"#\/definitions\/([^"]+)"/g)].map((m) => m[1] as string));
    const paramRefs = new Set([...text.matchAll(/"#\/parameters\/([^"]+)"/g)].map((m) => m[1] as string));
    for (const r of defRefs) assert.ok(defs[r], `dangling #/definitions/${r}`);
    for (const r of paramRefs) assert.ok(served.parameters?.[r], `dangling #/parameters/${r}`);
    for (const d of Object.keys(defs)) assert.ok(defRefs.has(d), `unreferenced definition ${d}`);
    assert.deepEqual(Object.keys(served.parameters ?? {}).sort(), [...paramRefs].sort());
  });

  it('gives every response a description', () => {
    for (const item of Object.values(served.paths)) {
      for (const [k, op] of Object.entries(item)) {
        if (k === 'parameters') continue;
        for (const [code, r] of Object.entries((op as { responses: Record<string, { description?: string }> }).responses)) {
          const want = { '200': 'OK', '201': 'Created', '202': 'Accepted', '401': 'Unauthorized' }[code];
          assert.equal(r.description, want, `response ${code}`);
        }
      }
    }
  });

  it('classifies path forms', () => {
    assert.deepEqual(pathTarget('/api/v1/namespaces/{name}/status'), { kind: 'resource', group: '', version: 'v1', resource: 'namespaces', subresource: 'status' });
    assert.deepEqual(pathTarget('/api/v1/watch/namespaces/{namespace}/pods/{name}'), { kind: 'resource', group: '', version: 'v1', resource: 'pods', subresource: '' });
    assert.deepEqual(pathTarget('/api/v1/namespaces/{namespace}/pods/{name}/proxy/{path}'), { kind: 'resource', group: '', version: 'v1', resource: 'pods', subresource: 'proxy' });
    assert.deepEqual(pathTarget('/apis/apps/'), { kind: 'group', group: 'apps' });
    assert.deepEqual(pathTarget('/apis/apps/v1/'), { kind: 'groupVersion', group: 'apps', version: 'v1' });
    assert.deepEqual(pathTarget('/version/'), { kind: 'other' });
  });
});

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

describe('OpenAPI v2 negotiation', () => {
  let server: Server;
  let port = 0;
  before(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      handler.handle(req, res, url.pathname, url.searchParams).then(
        (handled) => {
          if (!handled) res.writeHead(418).end();
        },
        (err: unknown) => {
          res.writeHead(err instanceof StatusError ? (err.status.code ?? 500) : 500, { 'x-reason': err instanceof StatusError ? String(err.status.reason) : 'thrown' }).end();
        },
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  const call = (path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Reply> =>
    new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });

  it('serves JSON by default and for */* and application/json', async () => {
    for (const accept of [undefined, '*/*', 'application/json', 'text/html, application/*;q=0.9']) {
      const r = await call('/openapi/v2', accept ? { accept } : {});
      assert.equal(r.status, 200, String(accept));
      assert.equal(r.headers['content-type'], 'application/json');
      assert.ok(r.body.equals(handler.jsonBytes));
      assert.match(String(r.headers.vary), /\bAccept\b/);
    }
  });

  it('serves the gnostic protobuf for both Accept spellings', async () => {
    for (const accept of ['application/com.github.proto-openapi.spec.v2@v1.0+protobuf', 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf', 'application/json;q=0.5, application/com.github.proto-openapi.spec.v2@v1.0+protobuf']) {
      const r = await call('/openapi/v2', { accept });
      assert.equal(r.status, 200);
      assert.equal(r.headers['content-type'], 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
      assert.ok(r.body.equals(handler.protobufBytes));
    }
    assert.notEqual(handler.protobufBytes.length, 0);
  });

  it('answers 406 when nothing acceptable can be served', async () => {
    for (const accept of ['application/yaml', 'text/html', 'application/json;q=0']) {
      const r = await call('/openapi/v2', { accept });
      assert.equal(r.status, 406, accept);
      assert.equal(r.headers['x-reason'], 'NotAcceptable');
    }
  });

  it('answers 304 on a matching If-None-Match, with a per-representation ETag', async () => {
    const json = await call('/openapi/v2');
    const etag = String(json.headers.etag);
    assert.match(etag, /^"[0-9A-F]{128}"$/);
    const again = await call('/openapi/v2', { 'if-none-match': etag });
    assert.equal(again.status, 304);
    assert.equal(again.body.length, 0);
    assert.equal(again.headers.etag, etag);
    const weak = await call('/openapi/v2', { 'if-none-match': `"other", W/${etag}` });
    assert.equal(weak.status, 304);
    const pb = await call('/openapi/v2', { accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf', 'if-none-match': etag });
    assert.equal(pb.status, 200, 'the JSON ETag must not validate the protobuf');
    assert.notEqual(pb.headers.etag, etag);
    const stale = await call('/openapi/v2', { 'if-none-match': '"stale"' });
    assert.equal(stale.status, 200);
  });

  it('gzips for clients that accept it, and answers HEAD without a body', async () => {
    assert.ok(handler.jsonBytes.length >= gzipThresholdBytes, 'document too small to exercise gzip');
    const gz = await call('/openapi/v2', { 'accept-encoding': 'gzip' });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.match(String(gz.headers.vary), /Accept-Encoding/);
    assert.ok(gunzipSync(gz.body).equals(handler.jsonBytes));
    const head = await call('/openapi/v2', {}, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
    assert.equal(head.headers['content-length'], String(handler.jsonBytes.length));
  });

  it('leaves other paths and methods to the rest of the chain', async () => {
    assert.equal((await call('/openapi/v2/')).status, 418);
    assert.equal((await call('/openapi/v3')).status, 418);
    assert.equal((await call('/openapi/v2', {}, 'POST')).status, 418);
  });
});

describe('OpenAPI v2 fragments', () => {
  const live = new OpenApiV2Handler(installer);
  const original = live.jsonBytes;
  const crdPath = '/apis/stable.example.com/v1/namespaces/{namespace}/crontabs';
  const fragment = {
    paths: {
      [crdPath]: { get: { operationId: 'listStableExampleComV1NamespacedCronTab', responses: { '200': { description: 'OK', schema: { $ref: '#/definitions/com.example.stable.v1.CronTabList' } } } }, parameters: [{ $ref: '#/parameters/namespace-vgWSWtn3' }] },
      // A path the built-in document has: kept as it is.
      '/api/v1/namespaces/{namespace}/configmaps': { get: { operationId: 'hijack' } },
    },
    definitions: {
      'com.example.stable.v1.CronTab': { type: 'object', properties: { spec: { type: 'string', description: 'the spec' } }, 'x-kubernetes-group-version-kind': [{ group: 'stable.example.com', kind: 'CronTab', version: 'v1' }] },
      'com.example.stable.v1.CronTabList': { type: 'object', properties: { items: { type: 'array', items: { $ref: '#/definitions/com.example.stable.v1.CronTab' } }, scale: { $ref: '#/definitions/io.k8s.api.autoscaling.v1.Scale' } } },
    },
  };

  it('merges a fragment on the next request, once, and takes it out again', () => {
    live.setFragment('crd/crontabs', fragment);
    const bytes = live.jsonBytes;
    assert.equal(live.jsonBytes, bytes, 'not rebuilt per request');
    const doc = JSON.parse(bytes.toString('utf8')) as SwaggerDocument;
    assert.ok(doc.paths[crdPath]);
    assert.equal((doc.paths['/api/v1/namespaces/{namespace}/configmaps']?.get as { operationId: string }).operationId, 'listCoreV1NamespacedConfigMap');
    assert.ok(doc.definitions?.['com.example.stable.v1.CronTab']);
    // A built-in definition the cut document had left out comes with the fragment that needs it.
    assert.ok(!served.definitions?.['io.k8s.api.autoscaling.v1.Scale']);
    assert.ok(doc.definitions?.['io.k8s.api.autoscaling.v1.Scale']);
    const keys = Object.keys(doc.paths);
    assert.deepEqual(keys, [...keys].sort());
    assert.ok(live.protobufBytes.includes(Buffer.from('com.example.stable.v1.CronTab')));
    live.setFragment('crd/crontabs', undefined);
    assert.ok(live.jsonBytes.equals(original));
  });

  it('renames a definition that conflicts with different content, with the fragment refs', () => {
    live.setFragment('aggregated/x', {
      paths: { '/apis/x.example.com/v1/things': { get: { responses: { '200': { schema: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Status' } } } } } },
      definitions: { 'io.k8s.apimachinery.pkg.apis.meta.v1.Status': { type: 'object', description: 'different' } },
    });
    const doc = JSON.parse(live.jsonBytes.toString('utf8')) as SwaggerDocument;
    assert.deepEqual(doc.definitions?.['io.k8s.apimachinery.pkg.apis.meta.v1.Status'], served.definitions?.['io.k8s.apimachinery.pkg.apis.meta.v1.Status']);
    assert.deepEqual(doc.definitions?.['io.k8s.apimachinery.pkg.apis.meta.v1.Status_v2'], { type: 'object', description: 'different' });
    assert.match(JSON.stringify(doc.paths['/apis/x.example.com/v1/things']), /meta\.v1\.Status_v2/);
    live.setFragment('aggregated/x', undefined);
  });
});

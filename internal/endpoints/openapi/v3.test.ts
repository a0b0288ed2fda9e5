import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { StatusError } from '../../apierrors/status-error.js';
import type { RestStorage } from '../../registry/interface.js';
import { ApiInstaller } from '../installer.js';
import { OpenApiV3Handler } from './v3.js';

const stub = async (): Promise<never> => ({}) as never;
const storage: RestStorage = { get: stub, list: stub, create: stub };
const installer = new ApiInstaller([{ group: '', version: 'v1', resource: 'configmaps', namespaced: true, main: storage, subresources: {}, selectableFields: { extra: [], style: 'meta' } }]);

describe('OpenAPI v3 group versions set at run time', () => {
  const handler = new OpenApiV3Handler(installer);
  let server: Server;
  let port = 0;
  before(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      handler.handle(req, res, url.pathname, url.searchParams).then(
        (handled) => void (handled || res.writeHead(404).end()),
        (err: unknown) => void res.writeHead(err instanceof StatusError ? (err.status.code ?? 500) : 500).end(),
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  const get = (path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; body: string }> =>
    new Promise((resolve, reject) => {
      request({ host: '127.0.0.1', port, path, headers }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      })
        .on('error', reject)
        .end();
    });

  const doc = { openapi: '3.0.0', info: { title: 'Kubernetes CRD Swagger', version: 'v0.1.0' }, paths: { '/apis/stable.example.com/v1/crontabs': {} }, components: { schemas: {} } };
  const hash = createHash('sha512').update(JSON.stringify(doc)).digest('hex').toUpperCase();

  it('lists a group version in the index with its content hash and serves it', async () => {
    handler.setGroupVersion('apis/stable.example.com/v1', doc);
    const index = JSON.parse((await get('/openapi/v3')).body) as { paths: Record<string, { serverRelativeURL: string }> };
    assert.equal(index.paths['apis/stable.example.com/v1']?.serverRelativeURL, `/openapi/v3/apis/stable.example.com/v1?hash=${hash}`);
    assert.ok(index.paths['api/v1']);
    const r = await get(`/openapi/v3/apis/stable.example.com/v1?hash=${hash}`);
    assert.equal(r.status, 200);
    assert.deepEqual(JSON.parse(r.body), doc);
    assert.equal(r.headers.etag, `"${hash}"`);
    assert.equal(r.headers['cache-control'], 'public, immutable');
    assert.equal((await get('/openapi/v3/apis/stable.example.com/v1', { 'if-none-match': `"${hash}"` })).status, 304);
    const stale = await get('/openapi/v3/apis/stable.example.com/v1?hash=00');
    assert.equal(stale.status, 301);
  });

  it('follows a replaced document and drops a removed one', async () => {
    const changed = { ...doc, paths: {} };
    handler.setGroupVersion('apis/stable.example.com/v1', changed);
    assert.deepEqual(JSON.parse((await get('/openapi/v3/apis/stable.example.com/v1')).body), changed);
    handler.setGroupVersion('apis/stable.example.com/v1', undefined);
    assert.equal((await get('/openapi/v3/apis/stable.example.com/v1')).status, 404);
    const index = JSON.parse((await get('/openapi/v3')).body) as { paths: Record<string, unknown> };
    assert.equal(index.paths['apis/stable.example.com/v1'], undefined);
  });

  it('finds built-in component schemas for CRD documents', () => {
    assert.ok(handler.builtInSchema('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'));
    assert.equal(handler.builtInSchema('com.example.nothing'), undefined);
  });
});

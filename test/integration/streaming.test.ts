/**
 * Streaming list responses over HTTPS against a real etcd: a large list is sent in chunks (no
 * Content-Length), gzipped on the fly when the client accepts gzip, as JSON and as Protobuf, and
 * decodes to the same items; small lists, Tables and pretty output are still written whole.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { decodeObject } from '../../proto/codec.js';
import { useServer } from '../support/server.js';

// Counts configmaps in its namespace: without the kube-root-ca.crt every namespace gets.
const fx = useServer({}, ['--controllers=*,-root-ca-cert-publisher']);
const ns = 'streaming';
const cms = `/api/v1/namespaces/${ns}/configmaps`;
const pb = 'application/vnd.kubernetes.protobuf';
const count = 300;

/** Drops what JSON and Protobuf represent differently (list items carry no kind or apiVersion in Protobuf). */
function comparable(item: any): unknown {
  const { kind: _k, apiVersion: _a, ...rest } = item;
  return rest;
}

describe('streamed lists', () => {
  before(async () => {
    assert.equal((await fx.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } })).status, 201);
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < count) {
          const i = next++;
          // About 1 KiB of data that does not compress to nothing.
          const body = { metadata: { name: `cm-${String(i).padStart(4, '0')}`, labels: { app: 'streaming' } }, data: { payload: randomBytes(700).toString('base64') } };
          const res = await fx.request('POST', cms, { body });
          assert.equal(res.status, 201, res.text);
        }
      }),
    );
  });

  it('a large JSON list streams without Content-Length and parses to every item', async () => {
    const res = await fx.request('GET', cms);
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'application/json');
    assert.equal(res.headers['content-encoding'], undefined);
    assert.equal(res.headers['content-length'], undefined);
    assert.equal(res.headers['transfer-encoding'], 'chunked');
    assert.ok(res.body.length > 256 * 1024, `${res.body.length} bytes`);
    const list = res.json();
    assert.deepEqual(Object.keys(list), ['kind', 'apiVersion', 'metadata', 'items']);
    assert.equal(list.kind, 'ConfigMapList');
    assert.equal(list.apiVersion, 'v1');
    assert.match(list.metadata.resourceVersion, /^\d+$/);
    assert.equal(list.items.length, count);
    assert.deepEqual(
      list.items.map((o: any) => o.metadata.name),
      Array.from({ length: count }, (_, i) => `cm-${String(i).padStart(4, '0')}`),
    );
    // The bytes are JSON.stringify of the list and kube's newline: no whitespace, and each item as GET serves it.
    assert.equal(res.text, `${JSON.stringify(list)}\n`);
    const one = await fx.request('GET', `${cms}/cm-0007`);
    assert.equal(`${JSON.stringify(list.items[7])}\n`, one.text);
  });

  it('with Accept-Encoding: gzip the stream is gzipped and decodes to the same list', async () => {
    const plain = (await fx.request('GET', cms)).json();
    const res = await fx.request('GET', cms, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-encoding'], 'gzip');
    assert.match(String(res.headers['vary']), /Accept-Encoding/);
    assert.equal(res.headers['content-length'], undefined);
    const list = JSON.parse(gunzipSync(res.body).toString());
    assert.equal(list.items.length, count);
    assert.deepEqual(list.items, plain.items);
    assert.ok(res.body.length < JSON.stringify(list).length, 'compressed');
  });

  it('a list at resourceVersion=0 (served from the watch cache when there is one) has the same bytes per item', async () => {
    const fresh = await fx.request('GET', cms);
    const any = await fx.request('GET', `${cms}?resourceVersion=0`);
    assert.equal(any.status, 200);
    assert.equal(any.headers['content-length'], undefined);
    const list = any.json();
    assert.equal(any.text, `${JSON.stringify(list)}\n`);
    assert.equal(JSON.stringify(list.items), JSON.stringify(fresh.json().items));
  });

  it('HEAD of a large list answers the Content-Length of the body, without the body', async () => {
    const get = await fx.request('GET', cms);
    const head = await fx.request('HEAD', cms);
    assert.equal(head.status, 200);
    assert.equal(head.headers['content-length'], String(get.body.length));
    assert.equal(head.body.length, 0);
  });

  it('a page of a large list streams with its continue token', async () => {
    const res = await fx.request('GET', `${cms}?limit=250`, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(res.headers['content-encoding'], 'gzip');
    const page = JSON.parse(gunzipSync(res.body).toString());
    assert.equal(page.items.length, 250);
    assert.ok(page.metadata.continue);
    assert.equal(page.metadata.remainingItemCount, count - 250);
    const rest = (await fx.request('GET', `${cms}?limit=250&continue=${encodeURIComponent(page.metadata.continue)}`)).json();
    assert.equal(rest.items.length, count - 250);
  });

  it('a small list is written whole with Content-Length and never gzipped', async () => {
    const res = await fx.request('GET', `${cms}?limit=5`, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-encoding'], undefined);
    assert.equal(res.headers['content-length'], String(res.body.length));
    assert.equal(res.json().items.length, 5);
    const empty = await fx.request('GET', `${cms}?labelSelector=app%3Dnone`);
    assert.equal(empty.headers['content-length'], String(empty.body.length));
    assert.deepEqual(empty.json().items, []);
    assert.match(empty.text, /"items":\[\]\}\n$/);
  });

  it('a Protobuf list streams and decodes to the same items as the JSON list', async () => {
    const json = (await fx.request('GET', cms)).json();
    const res = await fx.request('GET', cms, { headers: { accept: pb } });
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], pb);
    assert.equal(res.headers['content-length'], undefined);
    const list = decodeObject(res.body) as { kind: string; metadata: { resourceVersion: string }; items: unknown[] };
    assert.equal(list.kind, 'ConfigMapList');
    assert.equal(list.items.length, count);
    assert.deepEqual(list.items.map(comparable), json.items.map(comparable));
    const gz = await fx.request('GET', cms, { headers: { accept: pb, 'accept-encoding': 'gzip' } });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.deepEqual((decodeObject(gunzipSync(gz.body)) as { items: unknown[] }).items, list.items);
  });

  it('Tables and pretty JSON of a large list are still written whole', async () => {
    const table = await fx.request('GET', cms, { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
    assert.equal(table.status, 200);
    assert.equal(table.json().rows.length, count);
    assert.equal(table.headers['content-length'], String(table.body.length));
    const pretty = await fx.request('GET', `${cms}?pretty=true`, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(pretty.headers['content-encoding'], 'gzip');
    assert.equal(pretty.headers['content-length'], String(pretty.body.length));
    const text = gunzipSync(pretty.body).toString();
    // Indented and, as kube writes pretty JSON (json.MarshalIndent), without a trailing newline.
    assert.equal(text, JSON.stringify(JSON.parse(text), null, 2));
  });

  it('the server keeps serving after a client drops a streamed list halfway', async () => {
    // Abort as soon as the first bytes arrive; the connection is gone before the list is written.
    const { request } = await import('node:https');
    await new Promise<void>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: fx.port, path: cms, method: 'GET', ca: fx.ca, servername: 'localhost' }, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
        res.once('error', () => resolve());
      });
      req.on('error', (err) => ((err as NodeJS.ErrnoException).code === 'ECONNRESET' ? resolve() : reject(err)));
      req.end();
    });
    const after = await fx.request('GET', cms);
    assert.equal(after.status, 200);
    assert.equal(after.json().items.length, count);
  });
});

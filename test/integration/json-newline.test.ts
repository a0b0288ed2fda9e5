/**
 * Compact JSON bodies end with a newline, as kube's JSON encoder (Go's json.Encoder) writes them:
 * single objects (also the watch cache's bytes, also gzipped), streamed lists, Status errors,
 * Tables, discovery and every watch event. Pretty output (json.MarshalIndent) and /version
 * (indented by WriteRawJSON) have none, nor has OpenAPI (kube-openapi writes json.Marshal bytes).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { useServer, type TestResponse } from '../support/server.js';

const cms = '/api/v1/namespaces/default/configmaps';

function compactWithNewline(res: TestResponse, what: string): void {
  assert.ok(res.text.endsWith('}\n'), `${what}: ends with "}\\n": ${JSON.stringify(res.text.slice(-20))}`);
  assert.ok(!res.text.endsWith('\n\n'), `${what}: one newline`);
  assert.equal(res.text, `${JSON.stringify(JSON.parse(res.text))}\n`, `${what}: compact JSON and a newline`);
  assert.equal(res.headers['content-length'] ?? String(res.body.length), String(res.body.length), `${what}: Content-Length counts the newline`);
}

describe('the trailing newline of JSON bodies', () => {
  const fx = useServer();

  /** GET at resourceVersion=0 (the watch cache's bytes), once the cache has seen the object. */
  async function fromCache(path: string, headers: Record<string, string> = {}): Promise<TestResponse> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const res = await fx.request('GET', `${path}?resourceVersion=0`, { headers });
      if (res.status === 200 || Date.now() > deadline) {
        assert.equal(res.status, 200, `${path} from the cache: ${res.text.slice(0, 200)}`);
        return res;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('single objects: create, get, get from the watch cache (and its HEAD)', async () => {
    const created = await fx.request('POST', cms, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'nl' }, data: { a: 'b' } } });
    assert.equal(created.status, 201);
    compactWithNewline(created, 'create');
    compactWithNewline(await fx.request('GET', `${cms}/nl`), 'get');
    const cached = await fromCache(`${cms}/nl`);
    compactWithNewline(cached, 'get at resourceVersion=0');
    const head = await fx.request('HEAD', `${cms}/nl?resourceVersion=0`);
    assert.equal(head.headers['content-length'], String(cached.body.length));
  });

  it('a large object from the watch cache, gzipped, still ends with the newline', async () => {
    const big = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big' }, data: { payload: 'x'.repeat(200 * 1024) } };
    assert.equal((await fx.request('POST', cms, { body: big })).status, 201);
    const gzip = { 'accept-encoding': 'gzip' };
    for (const [what, res] of [
      ['from etcd', await fx.request('GET', `${cms}/big`, { headers: gzip })],
      ['from the cache', await fromCache(`${cms}/big`, gzip)],
    ] as const) {
      assert.equal(res.headers['content-encoding'], 'gzip', what);
      assert.equal(res.headers['content-length'], String(res.body.length));
      const text = gunzipSync(res.body).toString();
      assert.equal(text, `${JSON.stringify(JSON.parse(text))}\n`, what);
    }
    compactWithNewline(await fx.request('GET', `${cms}/big`), 'large get');
    compactWithNewline(await fromCache(`${cms}/big`), 'large get from the cache');
  });

  it('lists, Status errors and Tables', async () => {
    compactWithNewline(await fx.request('GET', cms), 'list');
    compactWithNewline(await fx.request('GET', `${cms}?resourceVersion=0`), 'list from the cache');
    const missing = await fx.request('GET', `${cms}/missing`);
    assert.equal(missing.status, 404);
    compactWithNewline(missing, 'status');
    const table = await fx.request('GET', cms, { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
    assert.equal(table.json().kind, 'Table');
    compactWithNewline(table, 'table');
    const partial = await fx.request('GET', `${cms}/nl`, { headers: { accept: 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io' } });
    assert.equal(partial.json().kind, 'PartialObjectMetadata');
    compactWithNewline(partial, 'partial object metadata');
  });

  it('discovery ends with a newline; /version is indented without one', async () => {
    compactWithNewline(await fx.request('GET', '/api'), '/api');
    compactWithNewline(await fx.request('GET', '/apis'), '/apis');
    compactWithNewline(await fx.request('GET', '/api/v1'), '/api/v1');
    const version = await fx.request('GET', '/version');
    assert.equal(version.text, JSON.stringify(version.json(), null, 2));
  });

  it('pretty output is indented without a trailing newline, errors included', async () => {
    const obj = await fx.request('GET', `${cms}/nl?pretty=true`);
    assert.equal(obj.text, JSON.stringify(obj.json(), null, 2));
    const list = await fx.request('GET', `${cms}?pretty=true`);
    assert.equal(list.text, JSON.stringify(list.json(), null, 2));
    const status = await fx.request('GET', `${cms}/missing`, { headers: { 'user-agent': 'curl/8.5.0' } });
    assert.equal(status.status, 404);
    assert.equal(status.text, JSON.stringify(status.json(), null, 2));
  });

  it('every watch event is one line ending with a newline; OpenAPI has none', async () => {
    const watch = await fx.request('GET', `${cms}?watch=true&resourceVersion=0&timeoutSeconds=1`);
    const lines = watch.text.split('\n');
    assert.equal(lines.pop(), '', 'the last event ends with a newline');
    assert.ok(lines.length >= 2);
    for (const l of lines) assert.equal(JSON.parse(l).type, 'ADDED');
    const openapi = await fx.request('GET', '/openapi/v2', { headers: { accept: 'application/json' } });
    assert.equal(openapi.status, 200);
    assert.ok(openapi.text.endsWith('}'), 'kube-openapi writes json.Marshal bytes');
  });
});

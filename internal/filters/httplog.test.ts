import assert from 'node:assert/strict';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createLogger } from '../observability/logging.js';
import { addHTTPLogKeyValue, withHTTPLogging } from './httplog.js';
import { attachRequestContext } from './request-context.js';

const chunks: string[] = [];
const log = createLogger({ verbosity: 3, writer: (c) => chunks.push(c) });
const filter = withHTTPLogging(log);
let server: Server;
let port = 0;
let lastListeners = -1;
let writeHeadReplaced = false;

function respond(req: IncomingMessage, res: ServerResponse): void {
  const state = attachRequestContext(req, res);
  const before = res.listenerCount('close');
  const writeHead = res.writeHead;
  void filter(req, res, state);
  lastListeners = res.listenerCount('close') - before;
  writeHeadReplaced = res.writeHead !== writeHead;
  res.setHeader('Audit-Id', 'a'.repeat(70));
  if (req.url?.startsWith('/fail')) {
    res.statusCode = 500;
    res.end('{"kind":"Status","message":"internal \\"error\\""}');
    return;
  }
  addHTTPLogKeyValue(res, 'apf_pl', 'exempt');
  res.statusCode = req.method === 'POST' ? 201 : 200;
  res.end('ok');
}

function call(method: string, path: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: { 'user-agent': 'kubectl/v1.33.0 (linux/amd64)', ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

async function lines(): Promise<string[]> {
  await new Promise((r) => setTimeout(r, 20)); // the close event follows the response
  log.flush();
  const out = chunks.join('').split(/\n(?=[IWE]\d{4} )/).filter((l) => l !== '');
  chunks.length = 0;
  return out;
}

describe('httplog', () => {
  before(async () => {
    server = createServer(respond);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  it('logs one line per request with kube\'s keys in kube\'s order', async () => {
    assert.equal(await call('GET', '/api/v1/namespaces/default/pods?limit=500'), 200);
    const [line, ...rest] = await lines();
    assert.equal(rest.length, 0);
    assert.match(
      line ?? '',
      new RegExp(
        String.raw`^I\d{4} [0-9:.]{15} +\d+ httplog\.ts:\d+\] "HTTP" verb="LIST" URI="/api/v1/namespaces/default/pods\?limit=500" latency="[0-9.]+(ns|µs|ms|s)" userAgent="kubectl/v1.33.0 \(linux/amd64\)" audit-ID="a{64}" srcIP="127\.0\.0\.1:\d+" apf_pl="exempt" resp=200\n$`,
      ),
    );
  });

  it('normalises the verb: GET, WATCH, APPLY, POST', async () => {
    await call('GET', '/api/v1/namespaces/default/pods/web');
    await call('GET', '/api/v1/pods?watch=true');
    await call('GET', '/api/v1/pods?watch=false');
    await call('PATCH', '/api/v1/namespaces/default/pods/web', { 'content-type': 'application/apply-patch+yaml' });
    await call('POST', '/api/v1/namespaces/default/pods');
    await call('GET', '/healthz');
    const verbs = (await lines()).map((l) => /verb="([A-Z]+)"/.exec(l)?.[1]);
    assert.deepEqual(verbs, ['GET', 'WATCH', 'LIST', 'APPLY', 'POST', 'GET']);
  });

  it('a 5xx adds statusStack and the body written as addedInfo', async () => {
    assert.equal(await call('GET', '/fail'), 500);
    const [line] = await lines();
    assert.match(line ?? '', / resp=500 statusStack=<\n\t\n\t {4}at /);
    assert.match(line ?? '', / addedInfo=<\n\tlogging error output: "\{\\"kind\\":\\"Status\\",\\"message\\":\\"internal \\\\\\"error\\\\\\"\\"\}"\n >\n$/);
  });

  it('below -v=3 a request costs no listener and no wrapper, and logs nothing', async () => {
    await call('GET', '/healthz');
    assert.equal(lastListeners, 1);
    assert.equal(writeHeadReplaced, true, "the status and body are watched at -v=3");
    await lines();
    log.setVerbosity(2);
    await call('GET', '/healthz');
    assert.equal(lastListeners, 0);
    assert.equal(writeHeadReplaced, false);
    assert.deepEqual(await lines(), []);
    log.setVerbosity(3);
  });
});

/**
 * Logging and profiling against a real server: httplog's one line per request at -v=3, -v
 * changed at run time through /debug/flags/v, CPU profiles and heap snapshots from /debug/pprof
 * (authorized like any non-resource URL), the same endpoints on --debug-socket-path without
 * authentication, and no /debug paths at all with --profiling=false.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createLogger } from '../../internal/observability/logging.js';
import { activeProfile } from '../../internal/server/debug/pprof.js';
import { useServer } from '../support/server.js';
import { bearer, tokenAuthFileFlag } from '../support/static-tokens.js';

const users = [
  { token: 'root-token-0123456789', name: 'root', uid: 'root-uid', groups: ['system:masters'] },
  { token: 'jane-token-0123456789', name: 'jane', uid: 'jane-uid' },
] as const;
const root = bearer(users[0].token);
const jane = bearer(users[1].token);

const socketDir = mkdtempSync(join(tmpdir(), 'capstan-debug-'));
const socketPath = join(socketDir, 'run', 'debug.sock');
after(() => rmSync(socketDir, { recursive: true, force: true }));

const chunks: string[] = [];
const log = createLogger({ verbosity: 3, writer: (c) => chunks.push(c) });
const fx = useServer({}, async () => [await tokenAuthFileFlag(users), '--authorization-mode=RBAC', `--debug-socket-path=${socketPath}`], { log });

/** The HTTP lines logged since the last call whose URI contains uriPart. */
async function httpLines(uriPart: string): Promise<string[]> {
  await new Promise((r) => setTimeout(r, 50)); // a response's close event follows its last byte
  log.flush();
  const all = chunks.join('').split(/\n(?=[IWE]\d{4} )/);
  chunks.length = 0;
  return all.map((l) => l.replace(/\n$/, '')).filter((l) => l.includes('] "HTTP" ') && l.includes(`URI="${uriPart}`));
}

/** One request on the debug socket. */
function viaSocket(method: string, path: string, body?: string): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, method, path }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(parts).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('httplog at -v=3', () => {
  it('logs one line per request with its verb, URI, latency, user agent, source and status', async () => {
    await httpLines('');
    const agent = { 'user-agent': 'kubectl/v1.33.0 (linux/amd64) kubernetes/abc1234' };
    assert.equal((await fx.request('GET', '/api/v1/namespaces/default/configmaps?limit=7', { headers: { ...root, ...agent } })).status, 200);
    const create = await fx.request('POST', '/api/v1/namespaces/default/configmaps', { headers: { ...root, ...agent }, body: { metadata: { name: 'httplog' } } });
    assert.equal(create.status, 201);
    assert.equal((await fx.request('GET', '/api/v1/namespaces/default/configmaps/absent', { headers: { ...root, ...agent } })).status, 404);
    const list = await httpLines('/api/v1/namespaces/default/configmaps');
    assert.equal(list.length, 3, list.join('\n'));
    assert.match(
      list[0] ?? '',
      /^I\d{4} \d\d:\d\d:\d\d\.\d{6} +\d+ httplog\.ts:\d+\] "HTTP" verb="LIST" URI="\/api\/v1\/namespaces\/default\/configmaps\?limit=7" latency="[0-9.]+(µs|ms|s)" userAgent="kubectl\/v1\.33\.0 \(linux\/amd64\) kubernetes\/abc1234" audit-ID="[^"]*" srcIP="127\.0\.0\.1:\d+" resp=200$/,
    );
    assert.match(list[1] ?? '', / verb="POST" URI="\/api\/v1\/namespaces\/default\/configmaps" .* resp=201$/);
    assert.match(list[2] ?? '', / verb="GET" URI="\/api\/v1\/namespaces\/default\/configmaps\/absent" .* resp=404$/);
  });

  it('a watch logs "Starting watch" when it starts and its HTTP line (verb WATCH) when it ends', async () => {
    await httpLines('');
    const watch = await fx.request('GET', '/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=1&labelSelector=app%3Dweb', { headers: root });
    assert.equal(watch.status, 200);
    await new Promise((r) => setTimeout(r, 50));
    log.flush();
    const text = chunks.join('');
    const started = text.search(/\] "Starting watch" path="\/api\/v1\/namespaces\/default\/configmaps" resourceVersion="" labels="app=web" fields="" timeout="1s"\n/);
    assert.ok(started >= 0, text);
    const [line] = await httpLines('/api/v1/namespaces/default/configmaps?watch');
    assert.match(line ?? '', / verb="WATCH" .* latency="1\.\d+s" .* resp=200$/);
    assert.ok(started < text.indexOf('"HTTP" verb="WATCH"'), 'the start is logged before the end');
  });

  it('/debug/flags/v changes -v: the lines stop at 2 and return at 3', async () => {
    const set2 = await fx.request('PUT', '/debug/flags/v', { headers: root, rawBody: '2' });
    assert.equal(set2.status, 200);
    assert.equal(set2.text, 'successfully set klog.logging.verbosity to 2\n');
    assert.equal(set2.headers['content-type'], 'text/plain');
    assert.equal(log.verbosity, 2);
    await fx.request('GET', '/api/v1/namespaces/default/configmaps?quiet=1', { headers: root });
    assert.deepEqual(await httpLines('/api/v1/namespaces/default/configmaps?quiet'), []);
    assert.equal((await fx.request('PUT', '/debug/flags/v', { headers: root, rawBody: '3' })).status, 200);
    await fx.request('GET', '/api/v1/namespaces/default/configmaps?loud=1', { headers: root });
    assert.equal((await httpLines('/api/v1/namespaces/default/configmaps?loud')).length, 1);
  });

  it("/debug/flags/v refuses what klog's Level.Set refuses, and methods other than PUT", async () => {
    const bad = await fx.request('PUT', '/debug/flags/v', { headers: root, rawBody: 'three' });
    assert.equal(bad.status, 400);
    assert.equal(bad.text, 'failed set klog.logging.verbosity three: strconv.ParseInt: parsing "three": invalid syntax\n');
    const get = await fx.request('GET', '/debug/flags/v', { headers: root });
    assert.equal(get.status, 406);
    assert.equal(get.text, 'unsupported http method\n');
    assert.equal(log.verbosity, 3);
    const index = await fx.request('GET', '/debug/flags/', { headers: root });
    assert.match(index.text, /<title>\/debug\/flags\/<\/title>/);
  });
});

describe('/debug/pprof on the secure port', () => {
  it('a CPU profile of 1 s is a .cpuprofile', async () => {
    const res = await fx.request('GET', '/debug/pprof/profile?seconds=1', { headers: root });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers['content-disposition'], 'attachment; filename="profile.cpuprofile"');
    const profile = res.json();
    assert.ok(Array.isArray(profile.nodes) && profile.nodes.length > 0);
    assert.ok(profile.nodes.every((n: any) => typeof n.id === 'number' && typeof n.callFrame?.functionName === 'string'));
    assert.ok(Array.isArray(profile.samples) && Array.isArray(profile.timeDeltas));
    assert.equal(profile.samples.length, profile.timeDeltas.length);
    assert.ok(profile.endTime - profile.startTime >= 900_000, 'about one second, in microseconds');
  });

  it('one profile at a time: a second answers 409', async () => {
    const first = fx.request('GET', '/debug/pprof/profile?seconds=1', { headers: root });
    // The server runs in this process: wait until the first profile has begun.
    const deadline = Date.now() + 5000;
    while (activeProfile() !== 'cpu' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    assert.equal(activeProfile(), 'cpu');
    const second = await fx.request('GET', '/debug/pprof/heap', { headers: root });
    assert.equal(second.status, 409);
    assert.equal(second.text, 'Could not take a heap snapshot: a profile is already in progress\n');
    assert.equal((await first).status, 200);
  });

  it('a heap snapshot parses as a .heapsnapshot', async () => {
    const res = await fx.request('GET', '/debug/pprof/heap', { headers: root });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers['content-disposition'], 'attachment; filename="heap.heapsnapshot"');
    assert.equal(Number(res.headers['content-length']), res.body.length);
    const snapshot = res.json();
    assert.ok(snapshot.snapshot.meta.node_fields.includes('name'));
    assert.ok(snapshot.snapshot.node_count > 0);
    assert.equal(snapshot.nodes.length, snapshot.snapshot.node_count * snapshot.snapshot.meta.node_fields.length);
    assert.ok(Array.isArray(snapshot.edges) && Array.isArray(snapshot.strings));
  });

  it('the index, the redirect, and 404s for what Node.js cannot profile', async () => {
    const index = await fx.request('GET', '/debug/pprof/', { headers: root });
    assert.equal(index.status, 200);
    assert.match(index.text, /href="profile\?seconds=30"/);
    const redirect = await fx.request('GET', '/debug/pprof', { headers: root });
    assert.equal(redirect.status, 302);
    assert.equal(redirect.headers.location, '/debug/pprof/');
    const goroutine = await fx.request('GET', '/debug/pprof/goroutine', { headers: root });
    assert.equal(goroutine.status, 404);
    assert.match(goroutine.text, /^Profile "goroutine" is not available: /);
    assert.equal((await fx.request('GET', '/debug/pprof/nonsense', { headers: root })).text, 'Unknown profile\n');
    const tooLong = await fx.request('GET', '/debug/pprof/profile?seconds=301', { headers: root });
    assert.equal(tooLong.status, 400);
  });

  it('is authorized like any non-resource URL: 403 without a nonResourceURLs rule', async () => {
    const profile = await fx.request('GET', '/debug/pprof/profile?seconds=1', { headers: jane });
    assert.equal(profile.status, 403);
    assert.equal(profile.json().message, 'forbidden: User "jane" cannot get path "/debug/pprof/profile"');
    const flags = await fx.request('PUT', '/debug/flags/v', { headers: jane, rawBody: '9' });
    assert.equal(flags.status, 403);
    assert.equal(log.verbosity, 3);
    assert.equal((await fx.request('GET', '/debug/pprof/', {})).status, 403, 'anonymous');
  });
});

describe('--debug-socket-path', () => {
  it('serves the same endpoints without authentication', async () => {
    const index = await viaSocket('GET', '/debug/pprof/');
    assert.equal(index.status, 200);
    assert.match(index.text, /\/debug\/pprof\//);
    const set = await viaSocket('PUT', '/debug/flags/v', '4');
    assert.equal(set.text, 'successfully set klog.logging.verbosity to 4\n');
    assert.equal(log.verbosity, 4);
    assert.equal((await viaSocket('PUT', '/debug/flags/v', '3')).status, 200);
    const profile = await viaSocket('GET', '/debug/pprof/profile?seconds=1');
    assert.equal(profile.status, 200);
    assert.ok(Array.isArray(JSON.parse(profile.text).samples));
    const other = await viaSocket('GET', '/api/v1/pods');
    assert.equal(other.status, 404);
    assert.equal(other.text, '404 page not found\n');
  });
});

describe('--profiling=false', () => {
  it('removes /debug/pprof and /debug/flags from the secure port; the debug socket still serves them', async () => {
    fx.options = { ...fx.options, profiling: { enabled: false, debugSocketPath: socketPath } };
    await fx.restart();
    for (const path of ['/debug/pprof/', '/debug/pprof/profile', '/debug/flags/v']) {
      const res = await fx.request('GET', path, { headers: root });
      assert.equal(res.status, 404, path);
      assert.equal(res.text, '404 page not found\n');
    }
    assert.equal((await viaSocket('GET', '/debug/pprof/')).status, 200);
  });
});

/**
 * Issue 18, item 1 (everything about a request but its body's content): fast-check fuzzes query
 * parameters, paths, methods, headers, client certificates, impersonation headers and slow or
 * truncated bodies against the API server run as a child process on a real etcd, with x509 client
 * certificates and RBAC. Every answer is a success for a valid request or a 4xx metav1.Status (or
 * Node's own parser 400/431 where Go's net/http would answer first for kube), never a 5xx or a hang;
 * the child stays alive and etcd changes only where a 2xx write explains it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { campaignCases, reportCampaign } from '../support/campaign.js';
import { Campaign, checkProperty, type Case } from './support/fuzz-requests-campaign.js';
import { encodeParam, headerValue, method, path, queryParam } from './support/fuzz-requests-gens.js';
import { requestHead, type RawResponse } from './support/fuzz-requests-raw.js';
import { fuzzNamespace, startFuzzServer, type FuzzServer } from './support/fuzz-requests-server.js';
import { isParserReject, type WriteLedger } from './support/fuzz-requests-oracle.js';
import { cleanHeaderValue, expectedStatus, identityCase, identityHeaders, type CertName } from './support/fuzz-requests-identity.js';
import type { IssuedCertificate } from '../support/client-certs.js';

const cms = `/api/v1/namespaces/${fuzzNamespace}/configmaps`;
let fx: FuzzServer;
let campaign: Campaign;
let nameCounter = 0;
const created: string[] = [];

before(async () => {
  fx = await startFuzzServer();
  campaign = new Campaign(fx);
});
after(async () => {
  await fx?.stop();
});

function json(body: unknown): Buffer {
  return Buffer.from(JSON.stringify(body));
}

function isDryRun(ps: ReadonlyArray<readonly [string, string]>): boolean {
  const values = ps.filter(([k]) => k === 'dryRun').map(([, v]) => v);
  return values.length > 0 && values.every((v) => v === 'All');
}

/** Records the configmap named in a 2xx write's answer (unless dry-run). */
function recordObject(ps: ReadonlyArray<readonly [string, string]>) {
  return (res: RawResponse, ledger: WriteLedger): void => {
    if (isDryRun(ps)) return;
    const name = (JSON.parse(res.body.toString()) as { metadata?: { name?: string }; details?: { name?: string } });
    const n = name.metadata?.name ?? name.details?.name;
    if (n) ledger.wrote(`/registry/configmaps/${fuzzNamespace}/${n}`);
  };
}

type Verb = 'list' | 'get' | 'watch-path' | 'create' | 'delete' | 'deletecollection';

function queryCase(verb: Verb, ps: ReadonlyArray<readonly [string, string]>, raw: boolean, who: 'admin' | 'reader', rvPrecondition: string | undefined): Case {
  const qs = ps.map((p) => encodeParam(p, raw)).join('&');
  const q = qs ? `?${qs}` : '';
  const ep = fx.endpoint(who === 'admin' ? fx.ids.admin : fx.ids.reader);
  const watching = verb === 'watch-path' || ps.some(([k]) => k === 'watch');
  const head = (m: string, p: string, body?: Buffer): Case['req'] => ({
    head: requestHead(m, p, [['Connection', 'close'], ...(body ? ([['Content-Type', 'application/json'], ['Content-Length', String(body.length)]] as [string, string][]) : [])]),
    ...(body ? { parts: [body] } : {}),
    mayStream: watching,
    deadlineMs: 12_000,
  });
  const writing = verb === 'create' || verb === 'delete' || verb === 'deletecollection';
  const allow = { stream: watching, ...(who === 'reader' && writing ? { status: 403, reason: 'Forbidden' } : {}) };
  switch (verb) {
    case 'list':
      return { ep, req: head('GET', `${cms}${q}`), allow };
    case 'get':
      return { ep, req: head('GET', `${cms}/seed-1${q}`), allow };
    case 'watch-path':
      return { ep, req: head('GET', `/api/v1/watch/namespaces/${fuzzNamespace}/configmaps${q}`), allow };
    case 'create': {
      const name = `fz-${process.pid}-${nameCounter++}`;
      return { ep, req: head('POST', `${cms}${q}`, json({ metadata: { name, labels: { victim: 'true' } }, data: { a: 'b' } })), allow, onSuccess: (res, l) => {
        recordObject(ps)(res, l);
        if (!isDryRun(ps)) created.push(name);
      } };
    }
    case 'delete': {
      const name = created.pop() ?? 'fz-none';
      const body = rvPrecondition === undefined ? undefined : json({ kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { resourceVersion: rvPrecondition } });
      return { ep, req: head('DELETE', `${cms}/${name}${q}`, body), allow, onSuccess: recordObject(ps) };
    }
    case 'deletecollection':
      // The victim selector comes first: kube reads the first value of a repeated parameter.
      return {
        ep,
        req: head('DELETE', `${cms}?labelSelector=victim%3Dtrue${qs ? `&${qs}` : ''}`),
        allow,
        onSuccess: (_res, l) => {
          if (!isDryRun(ps)) l.wrote(`/registry/configmaps/${fuzzNamespace}/fz-`, true);
        },
      };
  }
}

describe('fuzz-requests: query parameters', () => {
  it('answers list, get, watch, create, delete and deletecollection with any parameters by a success or a 4xx Status', async (t) => {
    const start = campaign.requests;
    const snaps = campaign.snapshots;
    const one = fc.record({
      verb: fc.constantFrom<Verb>('list', 'list', 'get', 'watch-path', 'create', 'delete', 'deletecollection'),
      ps: fc.array(queryParam, { maxLength: 5 }),
      raw: fc.boolean(),
      who: fc.constantFrom<'admin' | 'reader'>('admin', 'admin', 'reader'),
      rv: fc.option(fc.oneof(fc.constantFrom('-1', 'abc', '', '18446744073709551616', '1'), fc.integer({ min: 1, max: 50 }).map(String)), { nil: undefined }),
    });
    await checkProperty(
      fc.asyncProperty(fc.array(one, { minLength: 1, maxLength: 8 }), async (reqs) => {
        await campaign.batch(reqs.map((r) => queryCase(r.verb, r.ps, r.raw, r.who, r.rv)));
      }),
      campaignCases(40),
    );
    reportCampaign(t, 'fuzz-requests (query parameters)', { 'requests tried': campaign.requests - start, 'etcd snapshots compared': campaign.snapshots - snaps, failures: 0 });
  });
});

describe('fuzz-requests: paths and methods', () => {
  it('answers any method on any path by a success or a 4xx Status, or Node parser 400 for a method it does not know', async (t) => {
    const start = campaign.requests;
    const snaps = campaign.snapshots;
    const one = fc.record({ m: method, p: path, who: fc.constantFrom('admin', 'reader', 'anonymous') });
    await checkProperty(
      fc.asyncProperty(fc.array(one, { minLength: 1, maxLength: 10 }), async (reqs) => {
        await campaign.batch(
          reqs.map(({ m, p, who }) => ({
            // Writes only as identities that may not write: any change to etcd is then a defect. (As
            // admin, "DELETE /api/v1/namespaces/fuzz//" deletes the namespace: the path's slashes are
            // trimmed, as kube's request info trims them.)
            ep: fx.endpoint(who === 'admin' && !/^(DELETE|POST|PUT|PATCH)$/.test(m) ? fx.ids.admin : who === 'anonymous' ? undefined : fx.ids.reader),
            req: { head: requestHead(m, p, [['Connection', 'close']]), headOnly: m === 'HEAD', mayStream: /watch/.test(p), deadlineMs: 12_000 },
            allow: { parserReject: true, stream: /watch/.test(p), head: m === 'HEAD' },
          })),
        );
      }),
      campaignCases(30),
    );
    reportCampaign(t, 'fuzz-requests (paths and methods)', { 'requests tried': campaign.requests - start, 'etcd snapshots compared': campaign.snapshots - snaps, failures: 0 });
  });
});

describe('fuzz-requests: identities and impersonation', () => {
  it('authenticates and impersonates as kube decides: 401, 400, 403 or the grant of the identity that results', async (t) => {
    const start = campaign.requests;
    const snaps = campaign.snapshots;
    const certs: Record<CertName, IssuedCertificate | undefined> = { ...fx.ids, none: undefined };
    await checkProperty(
      fc.asyncProperty(fc.array(identityCase, { minLength: 1, maxLength: 8 }), async (cases) => {
        await campaign.batch(
          cases.map((c) => {
            const want = expectedStatus(c);
            const clean = identityHeaders(c).every(([, v]) => cleanHeaderValue(v));
            const name = `fz-${process.pid}-${nameCounter++}`;
            const body = c.action === 'create-fuzz' ? json({ metadata: { name, labels: { victim: 'true' } } }) : undefined;
            const path = c.action === 'list-default' ? '/api/v1/namespaces/default/configmaps' : cms;
            const headers: Array<[string, string]> = [['Connection', 'close'], ...identityHeaders(c)];
            if (body) headers.push(['Content-Type', 'application/json'], ['Content-Length', String(body.length)]);
            return {
              ep: fx.endpoint(certs[c.cert]),
              req: { head: requestHead(body ? 'POST' : 'GET', path, headers), ...(body ? { parts: [body] } : {}) },
              allow: { parserReject: !clean },
              check: (res: RawResponse) => (res.status === want || (!clean && isParserReject(res)) ? undefined : `expected ${want} for ${JSON.stringify(c)}`),
              onSuccess: (_res: RawResponse, l: WriteLedger) => {
                if (body) {
                  l.wrote(`/registry/configmaps/${fuzzNamespace}/${name}`);
                  created.push(name);
                }
              },
            };
          }),
        );
      }),
      campaignCases(40),
    );
    reportCampaign(t, 'fuzz-requests (identities and impersonation)', { 'requests tried': campaign.requests - start, 'etcd snapshots compared': campaign.snapshots - snaps, failures: 0 });
  });
});

const contentTypes = ['application/json', 'application/json;charset=utf-8', 'application/json; charset=latin1', 'text/plain', '', 'application/', '/', ';;', 'application/json;;', 'application/yaml', 'application/vnd.kubernetes.protobuf', 'application/apply-patch+yaml', 'multipart/form-data; boundary=', 'application/json;as=Table'];
const accepts = ['application/json', '*/*', 'application/json;as=Table;g=;v=', 'application/json;as=Table;v=v1;g=meta.k8s.io', 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io', 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io', 'text/html', 'application/xml', 'image/png', '', 'application/json;q=0', 'application/vnd.kubernetes.protobuf;stream=watch', 'application/yaml', 'application/*', '*/*;q=0.1, text/plain'];

describe('fuzz-requests: headers', () => {
  it('answers any Content-Type, Accept, Content-Encoding, huge or many headers by a success, a 4xx Status, or Node parser 400/431', async (t) => {
    const start = campaign.requests;
    const snaps = campaign.snapshots;
    const one = fc.record({
      write: fc.boolean(),
      contentType: fc.option(fc.oneof(fc.constantFrom(...contentTypes), headerValue), { nil: undefined }),
      accept: fc.option(fc.oneof(fc.constantFrom(...accepts), headerValue), { nil: undefined }),
      encoding: fc.option(fc.constantFrom('gzip', 'br', 'deflate', 'identity', 'x-garbage', ''), { nil: undefined }),
      bigHeader: fc.option(fc.integer({ min: 1_000, max: 1_200_000 }), { nil: undefined }),
      manyHeaders: fc.option(fc.integer({ min: 10, max: 3_000 }), { nil: undefined }),
      extra: fc.array(fc.tuple(fc.constantFrom('X-Fuzz', 'Accept', 'Content-Type', 'Transfer-Encoding', 'Expect', 'Host', 'Upgrade', 'Connection', 'X-Forwarded-For', 'Audit-ID', 'X-Remote-User'), headerValue), { maxLength: 3 }),
    });
    await checkProperty(
      fc.asyncProperty(fc.array(one, { minLength: 1, maxLength: 6 }), async (reqs) => {
        await campaign.batch(
          reqs.map((r) => {
            const name = `fz-${process.pid}-${nameCounter++}`;
            const body = r.write ? json({ metadata: { name, labels: { victim: 'true' } } }) : undefined;
            const headers: Array<[string, string]> = [['Connection', 'close']];
            if (r.contentType !== undefined) headers.push(['Content-Type', r.contentType]);
            if (r.accept !== undefined) headers.push(['Accept', r.accept]);
            if (r.encoding !== undefined) headers.push(['Content-Encoding', r.encoding]);
            if (r.bigHeader !== undefined) headers.push(['X-Big', 'b'.repeat(r.bigHeader)]);
            for (let i = 0; i < (r.manyHeaders ?? 0); i++) headers.push([`X-Many-${i}`, 'v']);
            headers.push(...r.extra);
            if (body) headers.push(['Content-Length', String(body.length)]);
            const stream = r.extra.some(([k]) => k === 'Upgrade');
            return {
              ep: fx.endpoint(fx.ids.admin),
              req: { head: requestHead(body ? 'POST' : 'GET', cms, headers), ...(body ? { parts: [body] } : {}), deadlineMs: 12_000 },
              allow: { parserReject: true, ...(stream ? { stream } : {}) },
              onSuccess: (res: RawResponse, l: WriteLedger) => {
                if (body && res.status === 201) {
                  l.wrote(`/registry/configmaps/${fuzzNamespace}/${name}`);
                  created.push(name);
                }
              },
            };
          }),
        );
      }),
      campaignCases(25),
    );
    reportCampaign(t, 'fuzz-requests (headers)', { 'requests tried': campaign.requests - start, 'etcd snapshots compared': campaign.snapshots - snaps, failures: 0 });
  });
});

describe('fuzz-requests: slow and truncated bodies', () => {
  it('serves a body sent a byte every 100 ms, frees requests whose bodies are cut short, and keeps serving others', async (t) => {
    const start = campaign.requests;
    const snaps = campaign.snapshots;
    const ep = fx.endpoint(fx.ids.admin);
    const post = (name: string, extra: Array<[string, string]>, length?: number): Buffer => {
      return requestHead('POST', cms, [['Connection', 'close'], ['Content-Type', 'application/json'], ...(length !== undefined ? ([['Content-Length', String(length)]] as Array<[string, string]>) : []), ...extra]);
    };
    const cases: Case[] = [];
    // Slow: a few bytes of a valid body every 100 ms (kept short and parallel for the time budget).
    for (let i = 0; i < 3; i++) {
      const name = `slow-${process.pid}-${i}`;
      const body = json({ metadata: { name } });
      const cut = body.length - 12;
      const tail = [...body.subarray(cut)].map((b) => Buffer.from([b]));
      cases.push({
        ep,
        req: { head: post(name, [], body.length), parts: [body.subarray(0, cut), ...tail], pauseMs: 100, deadlineMs: 15_000 },
        allow: { status: 201 },
        onSuccess: (_r, l) => l.wrote(`/registry/configmaps/${fuzzNamespace}/${name}`),
      });
    }
    // Truncated: Content-Length past what is sent, then a half-close or a reset; chunked cut off or malformed.
    const part = json({ metadata: { name: 'never' } }).subarray(0, 10);
    for (const finish of ['end', 'destroy'] as const) {
      cases.push({ ep, req: { head: post('cut', [], 500), parts: [part], finish, deadlineMs: 12_000 }, allow: { parserReject: true, tlsReject: true } });
      cases.push({ ep, req: { head: post('cut', [['Transfer-Encoding', 'chunked']]), parts: [Buffer.from('a\r\n{"metadata"')], finish, deadlineMs: 12_000 }, allow: { parserReject: true, tlsReject: true } });
    }
    for (const chunked of ['zz\r\n{}\r\n0\r\n\r\n', '2\r\n{}X\r\n0\r\n\r\n', 'fffffffffffffffff\r\n{}', '-1\r\n{}\r\n', '2;ext=\u0001\r\n{}\r\n0\r\n\r\n']) {
      cases.push({ ep, req: { head: post('bad-chunk', [['Transfer-Encoding', 'chunked']]), parts: [Buffer.from(chunked, 'latin1')], finish: 'end', deadlineMs: 12_000 }, allow: { parserReject: true, tlsReject: true } });
    }
    cases.push({ ep, req: { head: post('both', [['Transfer-Encoding', 'chunked']], 2), parts: [Buffer.from('2\r\n{}\r\n0\r\n\r\n')], finish: 'end', deadlineMs: 12_000 }, allow: { parserReject: true } });
    await campaign.batch(cases);
    // Every cut-short request was let go: nothing is still in flight once the batch is over.
    const deadline = Date.now() + 10_000;
    let inflight = '';
    for (;;) {
      const metrics = (await fx.admin('GET', '/metrics')).body.toString();
      inflight = metrics.split('\n').filter((l) => l.startsWith('apiserver_current_inflight_requests{')).join('; ');
      if (/request_kind="mutating"} 0\b/.test(inflight)) break;
      if (Date.now() > deadline) assert.fail(`mutating requests still in flight after truncated bodies: ${inflight}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    reportCampaign(t, 'fuzz-requests (slow and truncated bodies)', { 'requests tried': campaign.requests - start, 'etcd snapshots compared': campaign.snapshots - snaps, failures: 0 });
  });
});

describe('fuzz-requests: kube answers, exactly', () => {
  it("answers the hostile requests kube has a documented answer for with kube's status, reason and message", async (t) => {
    const start = campaign.requests;
    const snaps = campaign.snapshots;
    const get = (path: string, headers: Array<[string, string]> = []): Case['req'] => ({ head: requestHead('GET', path, [['Connection', 'close'], ...headers]), deadlineMs: 12_000 });
    const admin = fx.endpoint(fx.ids.admin);
    const body = json({ metadata: { name: 'never-made' } });
    const postAs = (type: string): Case['req'] => ({ head: requestHead('POST', cms, [['Connection', 'close'], ['Content-Type', type], ['Content-Length', String(body.length)]]), parts: [body] });
    // A continue token of the fuzz namespace's ConfigMaps, then used on Secrets: a key relative to the prefix, so valid there.
    const page = JSON.parse((await fx.admin('GET', `${cms}?limit=1`)).body.toString()) as { metadata: { continue?: string } };
    const token = page.metadata.continue ?? '';
    assert.ok(token, 'the first page has a continue token');
    const decoded = JSON.parse(Buffer.from(token, 'base64url').toString()) as { rv: number; start: string };
    const forge = (o: object): string => Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: decoded.rv, start: decoded.start, ...o })).toString('base64url');
    const cases: Case[] = [
      { ep: admin, req: get(`${cms}?labelSelector=${encodeURIComponent('a in (')}`), allow: { status: 400, reason: 'BadRequest', message: 'unable to parse requirement' } },
      { ep: admin, req: get(`${cms}?fieldSelector=spec.nodeName%3Dn`), allow: { status: 400, reason: 'BadRequest', message: '"spec.nodeName" is not a known field selector: only "metadata.name", "metadata.namespace"' } },
      { ep: admin, req: get(`/api/v1/namespaces/${fuzzNamespace}/pods?fieldSelector=spec.bogus%3Dn`), allow: { status: 400, reason: 'BadRequest', message: 'field label not supported: spec.bogus' } },
      { ep: admin, req: get(`${cms}?resourceVersionMatch=Exact`), allow: { status: 422, reason: 'Invalid', message: 'resourceVersionMatch is forbidden unless resourceVersion is provided' } },
      { ep: admin, req: get(`${cms}?sendInitialEvents=true`), allow: { status: 422, reason: 'Invalid', message: 'sendInitialEvents is forbidden for list' } },
      { ep: admin, req: get(`${cms}?limit=abc`), allow: { status: 400, reason: 'BadRequest' } },
      { ep: admin, req: get(`${cms}?limit=`), allow: { status: 400, reason: 'BadRequest', message: 'strconv.ParseInt: parsing "": invalid syntax' } },
      // One error per unprintable character, each quoting the value, would grow with its square.
      {
        ep: admin,
        req: { head: requestHead('POST', `${cms}?fieldManager=${'%00'.repeat(20_000)}`, [['Connection', 'close'], ['Content-Type', 'application/json'], ['Content-Length', String(body.length)]]), parts: [body] },
        allow: { status: 422, reason: 'Invalid', message: 'fieldManager: Too long: may not be more than 128 bytes' },
        check: (r) => (r.body.length < 1000 ? undefined : `an answer of ${r.body.length} bytes`),
      },
      { ep: admin, req: get(`${cms}?continue=${forge({ start: '../secrets/x' })}`), allow: { status: 400, reason: 'BadRequest', message: 'continue key is not valid' } },
      { ep: admin, req: get(`${cms}?continue=${forge({ v: 'meta.k8s.io/v9' })}`), allow: { status: 400, reason: 'BadRequest', message: 'continue key is not valid' } },
      { ep: admin, req: get(`/api/v1/namespaces/${fuzzNamespace}/secrets?continue=${token}`), allow: { status: 200 } },
      { ep: admin, req: get(`${cms}?continue=${token}&resourceVersion=1`), allow: { status: 400, reason: 'BadRequest', message: 'specifying resource version is not allowed when using continue' } },
      { ep: admin, req: get(cms, [['Accept', 'image/png']]), allow: { status: 406, reason: 'NotAcceptable', message: 'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf' } },
      { ep: admin, req: get(cms, [['Accept', 'application/json;as=Table;g=;v=']]), allow: { status: 406, reason: 'NotAcceptable' } },
      { ep: admin, req: postAs('text/plain'), allow: { status: 415, reason: 'UnsupportedMediaType', message: 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf' } },
      { ep: fx.endpoint(), req: get(cms, [['Authorization', 'Bearer not-a-token']]), allow: { status: 401, reason: 'Unauthorized', message: 'Unauthorized' } },
      { ep: fx.endpoint(fx.ids.foreign), req: get(cms), allow: { status: 401, reason: 'Unauthorized', message: 'Unauthorized' } },
      { ep: fx.endpoint(fx.ids.expired), req: get(cms), allow: { status: 401, reason: 'Unauthorized', message: 'Unauthorized' } },
      { ep: fx.endpoint(fx.ids.emptyCn), req: get(cms), allow: { status: 403, reason: 'Forbidden', message: 'User "system:anonymous" cannot list resource "configmaps"' } },
      {
        ep: fx.endpoint(fx.ids.reader),
        req: get(cms, [['Impersonate-User', 'bob']]),
        allow: { status: 403, reason: 'Forbidden', message: 'users "bob" is forbidden: User "fuzz-reader" cannot impersonate resource "users" in API group "" at the cluster scope' },
      },
      { ep: fx.endpoint(fx.ids.impersonator), req: get(cms, [['Impersonate-Group', 'system:masters']]), allow: { status: 400, reason: 'BadRequest', message: 'without impersonating a user' } },
      { ep: fx.endpoint(fx.ids.impersonator), req: get(cms, [['Impersonate-User', 'fuzz-reader']]), allow: { status: 200 } },
      {
        ep: fx.endpoint(fx.ids.impersonator),
        req: get('/api/v1/namespaces/default/configmaps', [['Impersonate-User', 'fuzz-reader']]),
        allow: { status: 403, reason: 'Forbidden', message: 'User "fuzz-reader" cannot list resource "configmaps" in API group "" in the namespace "default"' },
      },
      // kube's own 5xx: a list at a resourceVersion the store has not reached waits 3 s, then 504 Timeout.
      { ep: admin, req: get(`${cms}?resourceVersion=18446744073709551615&resourceVersionMatch=NotOlderThan`), allow: { status: 504, reason: 'Timeout', message: 'Too large resource version' } },
    ];
    await campaign.batch(cases);

    // A continue token whose revision etcd has compacted away: 410 Expired with kube's message.
    await fx.admin('POST', cms, { metadata: { name: `compact-${process.pid}`, labels: { victim: 'true' } } });
    created.push(`compact-${process.pid}`);
    const rev = (await fx.kv.get('/registry/namespaces/fuzz').exec()).header.revision;
    assert.ok(BigInt(rev) > BigInt(decoded.rv), 'the compaction passes the token revision');
    await fx.kv.kv.compact({ revision: rev, physical: true });
    const expired = await campaign.send({
      ep: admin,
      req: get(`${cms}?limit=1&continue=${token}`),
      allow: { status: 410, reason: 'Expired', message: 'The provided continue parameter is too old to display a consistent list result.' },
    });
    assert.equal(expired.status, 410);
    reportCampaign(t, 'fuzz-requests (kube answers)', { 'requests tried': campaign.requests - start, 'etcd snapshots compared': campaign.snapshots - snaps, failures: 0 });
  });
});

describe('fuzz-requests: totals', () => {
  it('tried requests and compared etcd snapshots in every part above', (t) => {
    assert.ok(campaign.requests > 0 && campaign.snapshots > 0);
    reportCampaign(t, 'fuzz-requests', { 'requests tried': campaign.requests, 'etcd snapshots compared': campaign.snapshots, failures: 0 });
  });
});

/**
 * Auditing over HTTPS against real etcd: a policy with mixed levels, omitted stages and
 * omitManagedFields yields exactly the expected events, one per stage per request, field by field,
 * in the json and legacy log formats; the log rotates at --audit-log-maxsize and rotated files are
 * gzipped with --audit-log-compress; in blocking-strict mode a log that cannot be written fails a
 * create with kube's 500 before anything reaches etcd. Identities come from a --token-auth-file:
 * admin in system:masters, alice with no rights, quiet whom the policy does not audit.
 */
import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { etcdctlGet } from '../support/etcdctl.js';
import { useServer } from '../support/server.js';
import { bearer, tokenAuthFileFlag, type StaticTokenUser } from '../support/static-tokens.js';

const users: StaticTokenUser[] = [
  { token: 'admin-token', name: 'admin', uid: 'admin-uid', groups: ['system:masters'] },
  { token: 'alice-token', name: 'alice', uid: 'alice-uid' },
  { token: 'quiet-token', name: 'quiet', uid: 'quiet-uid', groups: ['system:masters'] },
];
const admin = { username: 'admin', uid: 'admin-uid', groups: ['system:masters', 'system:authenticated'] };
const ua = 'audit-test/1.0';
const cms = '/api/v1/namespaces/default/configmaps';
const allow = { 'authorization.k8s.io/decision': 'allow', 'authorization.k8s.io/reason': '' };

const policy = `apiVersion: audit.k8s.io/v1
kind: Policy
omitManagedFields: true
rules:
- level: None
  users: [quiet]
- level: None
  nonResourceURLs: ["/healthz*", "/livez*", "/readyz*"]
- level: None
  resources: [{group: "", resources: [events]}]
- level: RequestResponse
  resources: [{group: "", resources: [configmaps], resourceNames: [keep-fields]}]
  omitManagedFields: false
- level: RequestResponse
  resources: [{group: "", resources: [configmaps]}]
  omitStages: [RequestReceived]
- level: Request
  resources: [{group: "", resources: [secrets]}]
- level: Metadata
`;

type Event = Record<string, any>;

async function policyFlags(dir: string, extra: readonly string[]): Promise<string[]> {
  await writeFile(join(dir, 'policy.yaml'), policy);
  return [await tokenAuthFileFlag(users), '--authorization-mode=RBAC', `--audit-policy-file=${join(dir, 'policy.yaml')}`, ...extra];
}

function parseLines(text: string): Event[] {
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Event);
}

const microTime = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

/** The event without its timestamps, which are checked for shape and order. */
function untimed(ev: Event): Event {
  const { requestReceivedTimestamp, stageTimestamp, ...rest } = ev;
  assert.match(requestReceivedTimestamp, microTime);
  assert.match(stageTimestamp, microTime);
  assert.ok(stageTimestamp >= requestReceivedTimestamp, `${ev.auditID} ${ev.stage}: stage before receipt`);
  if (ev.stage === 'RequestReceived') assert.equal(stageTimestamp, requestReceivedTimestamp);
  return rest;
}

function withoutManagedFields(obj: Event): Event {
  const { managedFields: _m, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

describe('audit: json log, mixed policy', () => {
  const fx = useServer({}, () => policyFlags(fx.dir, [`--audit-log-path=${join(fx.dir, 'audit', 'audit.log')}`]));
  const h = (id: string, token = 'admin-token'): Record<string, string> => ({ ...bearer(token), 'user-agent': ua, 'audit-id': id });

  it('records exactly the expected events, field by field', async () => {
    const create = await fx.request('POST', cms, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: '1' } }, headers: h('id-create') });
    assert.equal(create.status, 201);
    assert.equal(create.headers['audit-id'], 'id-create', 'the client’s Audit-ID is echoed');
    const created = create.json();
    const get = await fx.request('GET', `${cms}/cm`, { headers: h('id-get') });
    const list = await fx.request('GET', cms, { headers: h('id-list') });
    const watch = await fx.request('GET', `${cms}?watch=true&timeoutSeconds=1`, { headers: h('id-watch') });
    assert.equal(watch.status, 200);
    const updateBody = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', resourceVersion: created.metadata.resourceVersion }, data: { a: '2' } };
    const update = await fx.request('PUT', `${cms}/cm`, { body: updateBody, headers: h('id-update') });
    assert.equal(update.status, 200);
    const patch = await fx.request('PATCH', `${cms}/cm`, { rawBody: '{"data":{"b":"3"}}', headers: { ...h('id-patch'), 'content-type': 'application/merge-patch+json' } });
    assert.equal(patch.status, 200);
    await fx.request('POST', cms, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'keep-fields' }, data: { k: 'v' } }, headers: h('id-keep-create') });
    const keep = await fx.request('GET', `${cms}/keep-fields`, { headers: h('id-keep-get') });
    const del = await fx.request('DELETE', `${cms}/cm`, { headers: h('id-delete') });
    assert.equal(del.status, 200);
    const secret = await fx.request('POST', '/api/v1/namespaces/default/secrets', { body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, stringData: { k: 'v' } }, headers: h('id-secret') });
    assert.equal(secret.status, 201);
    const forbidden = await fx.request('GET', '/api/v1/namespaces/default/pods', { headers: h('id-forbidden', 'alice-token') });
    assert.equal(forbidden.status, 403);
    const unauthorized = await fx.request('GET', '/api/v1/namespaces/default/pods', { headers: h('id-unauthorized', 'wrong-token') });
    assert.equal(unauthorized.status, 401);
    assert.equal(unauthorized.headers['audit-id'], 'id-unauthorized');
    assert.equal((await fx.request('GET', '/version', { headers: h('id-version') })).status, 200);
    const imp = await fx.request('GET', '/api/v1/namespaces/default', { headers: { ...h('id-impersonate'), 'impersonate-user': 'bob', 'impersonate-group': 'system:masters' } });
    assert.equal(imp.status, 200);
    assert.equal((await fx.request('GET', cms, { headers: h('id-quiet', 'quiet-token') })).status, 200);
    assert.equal((await fx.request('GET', '/healthz', { headers: h('id-healthz') })).status, 200);
    const event = { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e' }, involvedObject: { kind: 'ConfigMap', name: 'cm', namespace: 'default' } };
    assert.equal((await fx.request('POST', '/api/v1/namespaces/default/events', { body: event, headers: h('id-event') })).status, 201);
    const noHeader = await fx.request('GET', '/version', { headers: { ...bearer('admin-token'), 'user-agent': ua } });
    assert.match(String(noHeader.headers['audit-id']), /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'a new UUID otherwise');

    // Blocking mode: every event is in the log before its answer reaches the client.
    const events = parseLines(await readFile(join(fx.dir, 'audit', 'audit.log'), 'utf8'));
    const ours = events.filter((e) => String(e.auditID).startsWith('id-'));
    assert.deepEqual(
      ours.map((e) => `${e.auditID} ${e.stage}`),
      [
        'id-create ResponseComplete',
        'id-get ResponseComplete',
        'id-list ResponseComplete',
        'id-watch ResponseStarted',
        'id-watch ResponseComplete',
        'id-update ResponseComplete',
        'id-patch ResponseComplete',
        'id-keep-create ResponseComplete',
        'id-keep-get RequestReceived',
        'id-keep-get ResponseComplete',
        'id-delete ResponseComplete',
        'id-secret RequestReceived',
        'id-secret ResponseComplete',
        'id-forbidden RequestReceived',
        'id-forbidden ResponseComplete',
        'id-unauthorized ResponseStarted',
        'id-version RequestReceived',
        'id-version ResponseComplete',
        'id-impersonate RequestReceived',
        'id-impersonate ResponseComplete',
      ],
    );
    const find = (id: string, stage: string): Event => ours.find((e) => e.auditID === id && e.stage === stage) as Event;
    const base = (id: string, stage: string, level: string, verb: string, uri: string): Event => ({
      kind: 'Event',
      apiVersion: 'audit.k8s.io/v1',
      level,
      auditID: id,
      stage,
      requestURI: uri,
      verb,
      user: admin,
      sourceIPs: ['127.0.0.1'],
      userAgent: ua,
    });
    const ref = (name?: string, extra: Event = {}): Event => ({ resource: 'configmaps', namespace: 'default', ...(name ? { name } : {}), apiVersion: 'v1', ...extra });

    // Fields in kube's order.
    assert.deepEqual(Object.keys(find('id-create', 'ResponseComplete')), [
      'kind', 'apiVersion', 'level', 'auditID', 'stage', 'requestURI', 'verb', 'user', 'sourceIPs', 'userAgent', 'objectRef',
      'responseStatus', 'requestObject', 'responseObject', 'requestReceivedTimestamp', 'stageTimestamp', 'annotations',
    ]);
    // create: the name comes from the body; managedFields are left out (the policy's default).
    assert.deepEqual(untimed(find('id-create', 'ResponseComplete')), {
      ...base('id-create', 'ResponseComplete', 'RequestResponse', 'create', cms),
      objectRef: ref('cm'),
      responseStatus: { metadata: {}, code: 201 },
      requestObject: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'cm' }, data: { a: '1' } },
      responseObject: withoutManagedFields(created),
      annotations: allow,
    });
    assert.ok(created.metadata.managedFields, 'the answer itself has them');
    assert.deepEqual(untimed(find('id-get', 'ResponseComplete')), {
      ...base('id-get', 'ResponseComplete', 'RequestResponse', 'get', `${cms}/cm`),
      objectRef: ref('cm'),
      responseStatus: { metadata: {}, code: 200 },
      responseObject: withoutManagedFields(get.json()),
      annotations: allow,
    });
    const listed = list.json();
    assert.deepEqual(untimed(find('id-list', 'ResponseComplete')), {
      ...base('id-list', 'ResponseComplete', 'RequestResponse', 'list', cms),
      objectRef: ref(),
      responseStatus: { metadata: {}, code: 200 },
      responseObject: { ...listed, items: listed.items.map(withoutManagedFields) },
      annotations: allow,
    });
    for (const stage of ['ResponseStarted', 'ResponseComplete']) {
      assert.deepEqual(untimed(find('id-watch', stage)), {
        ...base('id-watch', stage, 'RequestResponse', 'watch', `${cms}?watch=true&timeoutSeconds=1`),
        objectRef: ref(),
        responseStatus: { metadata: {}, code: 200 },
        annotations: allow,
      });
    }
    assert.ok(find('id-watch', 'ResponseComplete').stageTimestamp > find('id-watch', 'ResponseStarted').stageTimestamp);
    // update: uid and resourceVersion of the objectRef come from the body when it has them.
    assert.deepEqual(untimed(find('id-update', 'ResponseComplete')), {
      ...base('id-update', 'ResponseComplete', 'RequestResponse', 'update', `${cms}/cm`),
      objectRef: ref('cm', { resourceVersion: created.metadata.resourceVersion }),
      responseStatus: { metadata: {}, code: 200 },
      requestObject: updateBody,
      responseObject: withoutManagedFields(update.json()),
      annotations: allow,
    });
    // patch: the patch as sent.
    assert.deepEqual(untimed(find('id-patch', 'ResponseComplete')), {
      ...base('id-patch', 'ResponseComplete', 'RequestResponse', 'patch', `${cms}/cm`),
      objectRef: ref('cm'),
      responseStatus: { metadata: {}, code: 200 },
      requestObject: { data: { b: '3' } },
      responseObject: withoutManagedFields(patch.json()),
      annotations: allow,
    });
    // A rule's omitManagedFields: false overrides the policy's; RequestReceived is not omitted by that rule.
    assert.deepEqual(untimed(find('id-keep-get', 'RequestReceived')), {
      ...base('id-keep-get', 'RequestReceived', 'RequestResponse', 'get', `${cms}/keep-fields`),
      objectRef: ref('keep-fields'),
    });
    assert.deepEqual(find('id-keep-get', 'ResponseComplete').responseObject, keep.json());
    assert.ok(keep.json().metadata.managedFields);
    // delete: the Status answered gives responseStatus its status and details.
    const status = del.json();
    assert.deepEqual(untimed(find('id-delete', 'ResponseComplete')), {
      ...base('id-delete', 'ResponseComplete', 'RequestResponse', 'delete', `${cms}/cm`),
      objectRef: ref('cm'),
      responseStatus: { metadata: {}, status: 'Success', details: status.details, code: 200 },
      responseObject: status,
      annotations: allow,
    });
    // Request level: the request object, not the response.
    const secretRef = { resource: 'secrets', namespace: 'default', name: 's', apiVersion: 'v1' };
    assert.deepEqual(untimed(find('id-secret', 'RequestReceived')), {
      ...base('id-secret', 'RequestReceived', 'Request', 'create', '/api/v1/namespaces/default/secrets'),
      objectRef: { resource: 'secrets', namespace: 'default', apiVersion: 'v1' },
    });
    const secretDone = untimed(find('id-secret', 'ResponseComplete'));
    assert.deepEqual(secretDone.objectRef, secretRef);
    assert.deepEqual(secretDone.responseStatus, { metadata: {}, code: 201 });
    assert.equal(secretDone.requestObject.metadata.name, 's');
    assert.deepEqual(secretDone.requestObject.stringData, { k: 'v' });
    assert.equal(secretDone.responseObject, undefined);
    // 403: Metadata, with kube's annotations and the Status's fields.
    const alice = { username: 'alice', uid: 'alice-uid', groups: ['system:authenticated'] };
    const podsRef = { resource: 'pods', namespace: 'default', apiVersion: 'v1' };
    assert.deepEqual(untimed(find('id-forbidden', 'RequestReceived')), {
      ...base('id-forbidden', 'RequestReceived', 'Metadata', 'list', '/api/v1/namespaces/default/pods'),
      user: alice,
      objectRef: podsRef,
    });
    const denied = forbidden.json();
    assert.deepEqual(untimed(find('id-forbidden', 'ResponseComplete')), {
      ...base('id-forbidden', 'ResponseComplete', 'Metadata', 'list', '/api/v1/namespaces/default/pods'),
      user: alice,
      objectRef: podsRef,
      responseStatus: { metadata: {}, status: 'Failure', message: denied.message, reason: 'Forbidden', details: denied.details, code: 403 },
      annotations: { 'authorization.k8s.io/decision': 'forbid', 'authorization.k8s.io/reason': '' },
    });
    // 401: one ResponseStarted event, no user.
    assert.deepEqual(untimed(find('id-unauthorized', 'ResponseStarted')), {
      ...base('id-unauthorized', 'ResponseStarted', 'Metadata', 'list', '/api/v1/namespaces/default/pods'),
      user: {},
      objectRef: podsRef,
      responseStatus: { metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 },
    });
    // A non-resource URL: no objectRef.
    assert.deepEqual(untimed(find('id-version', 'ResponseComplete')), {
      ...base('id-version', 'ResponseComplete', 'Metadata', 'get', '/version'),
      responseStatus: { metadata: {}, code: 200 },
      annotations: allow,
    });
    // Impersonation: user is who asked; impersonatedUser appears once impersonation has run.
    const nsRef = { resource: 'namespaces', namespace: 'default', name: 'default', apiVersion: 'v1' };
    assert.deepEqual(untimed(find('id-impersonate', 'RequestReceived')), {
      ...base('id-impersonate', 'RequestReceived', 'Metadata', 'get', '/api/v1/namespaces/default'),
      objectRef: nsRef,
    });
    assert.deepEqual(untimed(find('id-impersonate', 'ResponseComplete')), {
      ...base('id-impersonate', 'ResponseComplete', 'Metadata', 'get', '/api/v1/namespaces/default'),
      impersonatedUser: { username: 'bob', groups: ['system:masters', 'system:authenticated'] },
      objectRef: nsRef,
      responseStatus: { metadata: {}, code: 200 },
      annotations: allow,
    });

    // The metrics count what was written, and one level per request (None included).
    const metrics = await fx.server.metrics.text();
    assert.match(metrics, new RegExp(`^apiserver_audit_event_total ${events.length}$`, 'm'));
    assert.match(metrics, /^apiserver_audit_level_total\{level="None"\} [3-9]\d*$/m);
    assert.match(metrics, /^apiserver_audit_level_total\{level="RequestResponse"\} 9$/m);
    assert.match(metrics, /^apiserver_audit_requests_rejected_total 0$/m);
  });
});

describe('audit: legacy log format', () => {
  const fx = useServer({}, () => policyFlags(fx.dir, [`--audit-log-path=${join(fx.dir, 'audit.log')}`, '--audit-log-format=legacy']));

  it('writes kube’s one-line text for each event', async () => {
    const h = { ...bearer('admin-token'), 'user-agent': 'legacy "test"', 'audit-id': 'id-legacy' };
    await fx.request('GET', '/api/v1/namespaces/default/pods', { headers: h });
    await fx.request('GET', '/api/v1/namespaces/default/pods', { headers: { ...bearer('nope'), 'audit-id': 'id-legacy-401' } });
    await fx.request('GET', '/api/v1/namespaces/default', { headers: { ...h, 'audit-id': 'id-legacy-imp', 'impersonate-user': 'bob', 'impersonate-group': 'system:masters' } });
    const lines = (await readFile(join(fx.dir, 'audit.log'), 'utf8')).split('\n').filter((l) => l.includes('id="id-legacy'));
    const ts = '(\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(?:\\.\\d{1,6})?(?:Z|[+-]\\d\\d:\\d\\d))';
    const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const line = (rest: string): RegExp => new RegExp(`^${ts} AUDIT: ${esc(rest)}$`);
    const adminGroups = 'groups="\\"system:masters\\",\\"system:authenticated\\""';
    const expected = [
      `id="id-legacy" stage="RequestReceived" ip="127.0.0.1" method="list" user="admin" ${adminGroups} as="<self>" asgroups="<lookup>" user-agent="legacy \\"test\\"" namespace="default" uri="/api/v1/namespaces/default/pods" response="<deferred>"`,
      `id="id-legacy" stage="ResponseComplete" ip="127.0.0.1" method="list" user="admin" ${adminGroups} as="<self>" asgroups="<lookup>" user-agent="legacy \\"test\\"" namespace="default" uri="/api/v1/namespaces/default/pods" response="200"`,
      `id="id-legacy-401" stage="ResponseStarted" ip="127.0.0.1" method="list" user="<none>" groups="<none>" as="<self>" asgroups="<lookup>" user-agent="" namespace="default" uri="/api/v1/namespaces/default/pods" response="401"`,
      `id="id-legacy-imp" stage="RequestReceived" ip="127.0.0.1" method="get" user="admin" ${adminGroups} as="<self>" asgroups="<lookup>" user-agent="legacy \\"test\\"" namespace="default" uri="/api/v1/namespaces/default" response="<deferred>"`,
      `id="id-legacy-imp" stage="ResponseComplete" ip="127.0.0.1" method="get" user="admin" ${adminGroups} as="bob" asgroups="\\"system:masters\\",\\"system:authenticated\\"" user-agent="legacy \\"test\\"" namespace="default" uri="/api/v1/namespaces/default" response="200"`,
    ];
    assert.equal(lines.length, expected.length, lines.join('\n'));
    lines.forEach((l, i) => {
      const m = line(expected[i] as string).exec(l);
      assert.ok(m, `line ${i}:\n${l}\nexpected:\n${expected[i]}`);
      assert.ok(Math.abs(Date.parse(m[1] as string) - Date.now()) < 60_000, 'the time the request was received');
    });
    // Both events of a request carry the time it was received.
    assert.equal(lines[0]?.split(' ')[0], lines[1]?.split(' ')[0]);
  });
});

describe('audit: rotation (--audit-log-maxsize=1 --audit-log-compress)', () => {
  const fx = useServer({}, () => policyFlags(fx.dir, [`--audit-log-path=${join(fx.dir, 'logs', 'audit.log')}`, '--audit-log-maxsize=1', '--audit-log-compress']));

  it('rotates at a megabyte and gzips the rotated files, losing no event', async () => {
    const data = { big: 'x'.repeat(150 * 1024) };
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      const id = `id-rot-${i}`;
      ids.push(id);
      const res = await fx.request('POST', cms, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `big-${i}` }, data }, headers: { ...bearer('admin-token'), 'audit-id': id } });
      assert.equal(res.status, 201);
    }
    const dir = join(fx.dir, 'logs');
    const backupName = /^audit-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}\.log\.gz$/;
    // Compression runs in the background after each rotation.
    let names: string[] = [];
    for (let i = 0; i < 100; i++) {
      names = (await readdir(dir)).sort();
      if (names.every((n) => n === 'audit.log' || backupName.test(n)) && names.length >= 3) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const backups = names.filter((n) => n !== 'audit.log');
    assert.ok(backups.length >= 2, `rotated files: ${names.join(', ')}`);
    for (const b of backups) assert.match(b, backupName);
    const events: Event[] = [];
    for (const b of backups) {
      const text = gunzipSync(await readFile(join(dir, b))).toString('utf8');
      assert.ok(Buffer.byteLength(text) <= 1024 * 1024, `${b} is at most 1 MiB`);
      events.push(...parseLines(text));
    }
    events.push(...parseLines(await readFile(join(dir, 'audit.log'), 'utf8')));
    // The RequestResponse rule omits RequestReceived: one ResponseComplete per create, in order.
    assert.deepEqual(
      events.filter((e) => String(e.auditID).startsWith('id-rot-')).map((e) => `${e.auditID} ${e.stage}`),
      ids.map((id) => `${id} ResponseComplete`),
    );
    for (const e of events) assert.equal(e.requestObject.data.big, data.big);
  });
});

describe('audit: blocking-strict with a log that cannot be written', () => {
  const fx = useServer({}, () => policyFlags(fx.dir, ['--audit-log-path=/dev/full', '--audit-log-mode=blocking-strict']));

  it('answers a create 500 and stores nothing', async () => {
    // Secrets are audited at Request level with their RequestReceived stage (configmaps omit it).
    const secrets = '/api/v1/namespaces/default/secrets';
    const res = await fx.request('POST', secrets, {
      body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'never' }, stringData: { a: '1' } },
      headers: { ...bearer('admin-token'), 'audit-id': 'id-strict' },
    });
    assert.equal(res.status, 500);
    assert.equal(res.text, `Internal Server Error: "${secrets}": failed to store audit event\n`);
    assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(res.headers['audit-id'], 'id-strict');
    assert.equal((await etcdctlGet(fx.etcd.endpoint, '/registry/secrets/default/never')).length, 0, 'not in etcd');
    // Only RequestReceived decides: a request whose policy omits it is answered (its later event is lost).
    const cm = await fx.request('POST', cms, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kept' } }, headers: bearer('admin-token') });
    assert.equal(cm.status, 201);
    // A request the policy does not audit is not affected.
    assert.equal((await fx.request('GET', '/healthz')).status, 200);
    const metrics = await fx.server.metrics.text();
    assert.match(metrics, /^apiserver_audit_requests_rejected_total 1$/m);
    assert.match(metrics, /^apiserver_audit_error_total\{plugin="log"\} 2$/m);
  });
});

/**
 * The resource verbs over HTTPS against a real etcd: create/get/update/patch/delete, metadata,
 * optimistic concurrency, content negotiation and the Status errors kube answers with.
 */
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { useServer } from '../support/server.js';

const fx = useServer();
const cms = '/api/v1/namespaces/default/configmaps';

function cm(name: string, data: Record<string, string> = { a: '1' }, extra: Record<string, unknown> = {}) {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...extra }, data };
}

describe('create and get', () => {
  it('the system namespaces exist after start', async () => {
    const res = await fx.request('GET', '/api/v1/namespaces');
    assert.equal(res.status, 200);
    const list = res.json();
    assert.equal(list.kind, 'NamespaceList');
    const names = list.items.map((n: any) => n.metadata.name);
    for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) assert.ok(names.includes(ns), `${ns} exists`);
    const def = list.items.find((n: any) => n.metadata.name === 'default');
    assert.equal(def.status.phase, 'Active');
    assert.deepEqual(def.spec.finalizers, ['kubernetes']);
    assert.equal(def.metadata.labels['kubernetes.io/metadata.name'], 'default');
  });

  it('POST creates with system metadata and answers 201; GET reads it back', async () => {
    const res = await fx.request('POST', cms, { body: cm('create-a') });
    assert.equal(res.status, 201, res.text);
    const obj = res.json();
    assert.equal(obj.kind, 'ConfigMap');
    assert.equal(obj.apiVersion, 'v1');
    assert.match(obj.metadata.uid, /^[0-9a-f-]{36}$/);
    assert.match(obj.metadata.creationTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.match(obj.metadata.resourceVersion, /^\d+$/);
    assert.equal(obj.metadata.namespace, 'default');
    const got = await fx.request('GET', `${cms}/create-a`);
    assert.equal(got.status, 200);
    assert.deepEqual(got.json(), obj);
  });

  it('a body without apiVersion and kind is accepted; a wrong kind or version is 400', async () => {
    const ok = await fx.request('POST', cms, { body: { metadata: { name: 'bare' }, data: { x: 'y' } } });
    assert.equal(ok.status, 201, ok.text);
    const wrongKind = await fx.request('POST', cms, { body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'x' } } });
    assert.equal(wrongKind.status, 400);
    assert.equal(wrongKind.json().reason, 'BadRequest');
    const wrongVersion = await fx.request('POST', cms, { body: { apiVersion: 'apps/v1', kind: 'ConfigMap', metadata: { name: 'x' } } });
    assert.equal(wrongVersion.status, 400);
    assert.match(wrongVersion.json().message, /does not match the expected API version/);
  });

  it('malformed JSON is 400 and never stored', async () => {
    const res = await fx.request('POST', cms, { rawBody: '{"metadata": {"name": "broken"', headers: { 'content-type': 'application/json' } });
    assert.equal(res.status, 400);
    const status = res.json();
    assert.equal(status.kind, 'Status');
    assert.equal(status.reason, 'BadRequest');
    assert.equal((await fx.request('GET', `${cms}/broken`)).status, 404);
  });

  it('a second create of the same name is 409 AlreadyExists', async () => {
    assert.equal((await fx.request('POST', cms, { body: cm('dup') })).status, 201);
    const res = await fx.request('POST', cms, { body: cm('dup') });
    assert.equal(res.status, 409);
    const s = res.json();
    assert.equal(s.reason, 'AlreadyExists');
    assert.equal(s.message, 'configmaps "dup" already exists');
    assert.deepEqual(s.details, { name: 'dup', kind: 'configmaps' });
  });

  it('generateName appends five random characters', async () => {
    const res = await fx.request('POST', cms, { body: { metadata: { generateName: 'gen-' }, data: {} } });
    assert.equal(res.status, 201);
    assert.match(res.json().metadata.name, /^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  it('creating in a missing namespace is 404 for the namespace', async () => {
    const res = await fx.request('POST', '/api/v1/namespaces/nope/configmaps', { body: cm('x') });
    assert.equal(res.status, 404);
    const s = res.json();
    assert.equal(s.reason, 'NotFound');
    assert.equal(s.message, 'namespaces "nope" not found');
  });

  it('a namespace in the body that differs from the URL is 400', async () => {
    const res = await fx.request('POST', cms, { body: cm('other-ns', {}, { namespace: 'kube-system' }) });
    assert.equal(res.status, 400);
    assert.equal(res.json().message, 'the namespace of the provided object does not match the namespace sent on the request');
  });

  it('invalid names and labels are 422 Invalid with one cause per field', async () => {
    const res = await fx.request('POST', cms, { body: cm('Bad_Name', {}, { labels: { 'bad key!': 'v', ok: 'not valid value!' } }) });
    assert.equal(res.status, 422);
    const s = res.json();
    assert.equal(s.reason, 'Invalid');
    assert.match(s.message, /^ConfigMap "Bad_Name" is invalid: \[metadata\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/);
    const fields = s.details.causes.map((c: any) => c.field);
    assert.ok(fields.includes('metadata.name'));
    assert.ok(fields.includes('metadata.labels'));
    assert.equal(s.details.kind, 'ConfigMap');
    assert.equal(s.details.causes[0].reason, 'FieldValueInvalid');
  });

  it('a missing name is 422 with the Required cause', async () => {
    const res = await fx.request('POST', cms, { body: { data: {} } });
    assert.equal(res.status, 422);
    assert.deepEqual(res.json().details.causes, [{ reason: 'FieldValueRequired', message: 'Required value: name or generateName is required', field: 'metadata.name' }]);
  });

  it('a resourceVersion on create is 400', async () => {
    const res = await fx.request('POST', cms, { body: cm('with-rv', {}, { resourceVersion: '5' }) });
    assert.equal(res.status, 400);
    assert.equal(res.json().message, 'resourceVersion should not be set on objects to be created');
  });

  it('write options: dryRun=All stores nothing; bad dryRun, fieldValidation and fieldManager are 422', async () => {
    const dry = await fx.request('POST', `${cms}?dryRun=All`, { body: cm('dry-one') });
    assert.equal(dry.status, 201);
    assert.equal(dry.json().metadata.name, 'dry-one');
    assert.equal((await fx.request('GET', `${cms}/dry-one`)).status, 404);
    const badDry = await fx.request('POST', `${cms}?dryRun=Some`, { body: cm('x') });
    assert.equal(badDry.status, 422);
    assert.equal(badDry.json().message, 'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Some"}: supported values: "All"');
    const badValidation = await fx.request('PUT', `${cms}/x?fieldValidation=Loose`, { body: cm('x') });
    assert.equal(badValidation.status, 422);
    assert.match(badValidation.json().message, /^UpdateOptions\.meta\.k8s\.io "" is invalid: fieldValidation: Unsupported value: "Loose"/);
    const longManager = await fx.request('POST', `${cms}?fieldManager=${'m'.repeat(129)}`, { body: cm('x') });
    assert.equal(longManager.status, 422);
    const forced = await fx.request('PATCH', `${cms}/x?force=true`, { rawBody: '{}', headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(forced.status, 422);
    assert.match(forced.json().message, /force: Forbidden: may not be specified for non-apply patch/);
  });

  it('unknown fields: pruned with a warning by default, refused with Strict, dropped silently with Ignore', async () => {
    const body = { ...cm('unknown-warn'), bogus: 1, metadata: { name: 'unknown-warn', extra: true } };
    const warn = await fx.request('POST', cms, { body });
    assert.equal(warn.status, 201, warn.text);
    assert.equal(warn.headers.warning, '299 - "unknown field \\"metadata.extra\\"", 299 - "unknown field \\"bogus\\""');
    assert.equal(warn.json().bogus, undefined);
    const strict = await fx.request('POST', `${cms}?fieldValidation=Strict`, { body: { ...body, metadata: { name: 'unknown-strict', extra: true } } });
    assert.equal(strict.status, 400);
    assert.equal(strict.json().message, 'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "metadata.extra", unknown field "bogus"');
    assert.equal((await fx.request('GET', `${cms}/unknown-strict`)).status, 404);
    const ignore = await fx.request('POST', `${cms}?fieldValidation=Ignore`, { body: { ...body, metadata: { name: 'unknown-ignore' } } });
    assert.equal(ignore.status, 201);
    assert.equal(ignore.headers.warning, undefined);
  });

  it('repeated keys: JSON paths and YAML lines, merged with unknown fields as kube orders them', async () => {
    const deploys = '/apis/apps/v1/namespaces/default/deployments';
    const json = (name: string): string => `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"${name}","labels":{"app":"nginx"}},
      "spec":{"unknown1":"val1","unknownDupe":"valDupe","unknownDupe":"valDupe2","paused":true,"paused":false,
      "selector":{"matchLabels":{"app":"nginx"}},"template":{"metadata":{"labels":{"app":"nginx"}},
      "spec":{"containers":[{"name":"nginx","image":"nginx:latest","unknownNested":"val1","imagePullPolicy":"Always","imagePullPolicy":"Never"}]}}}}`;
    const warn = await fx.request('POST', deploys, { rawBody: json('dup-warn'), headers: { 'content-type': 'application/json' } });
    assert.equal(warn.status, 201, warn.text);
    assert.equal(
      warn.headers.warning,
      ['unknown field \\"spec.unknown1\\"', 'unknown field \\"spec.unknownDupe\\"', 'duplicate field \\"spec.paused\\"', 'unknown field \\"spec.template.spec.containers[0].unknownNested\\"', 'duplicate field \\"spec.template.spec.containers[0].imagePullPolicy\\"']
        .map((w) => `299 - "${w}"`)
        .join(', '),
    );
    // Go omits a false non-pointer bool, so false may also be absent; the first value (true) must not win.
    assert.notEqual(warn.json().spec.paused, true, 'the last value wins');
    const strict = await fx.request('POST', `${deploys}?fieldValidation=Strict`, { rawBody: json('dup-strict'), headers: { 'content-type': 'application/json' } });
    assert.equal(strict.status, 400);
    assert.match(strict.json().message, /^Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.unknown1", unknown field "spec.unknownDupe", duplicate field "spec.paused"/);
    const yaml = [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata:',
      '  name: dup-yaml',
      'spec:',
      '  paused: true',
      '  paused: false',
      '  bogus: 1',
      '  selector: {matchLabels: {app: web}}',
      '  template: {metadata: {labels: {app: web}}, spec: {containers: [{name: c, image: i}]}}',
    ].join('\n');
    const ystrict = await fx.request('POST', `${deploys}?fieldValidation=Strict`, { rawBody: yaml, headers: { 'content-type': 'application/yaml' } });
    assert.equal(ystrict.status, 400);
    assert.equal(
      ystrict.json().message,
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: yaml: unmarshal errors:\n  line 7: key "paused" already set in map, unknown field "spec.bogus"',
    );
    const ywarn = await fx.request('POST', deploys, { rawBody: yaml, headers: { 'content-type': 'application/yaml' } });
    assert.equal(ywarn.status, 201, ywarn.text);
    assert.equal(ywarn.headers.warning, '299 - "line 7: key \\"paused\\" already set in map", 299 - "unknown field \\"spec.bogus\\""');
    const patch = await fx.request('PATCH', `${deploys}/dup-warn?fieldValidation=Strict`, {
      rawBody: '{"spec":{"paused":true,"paused":false,"zzz":1}}',
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(patch.status, 422, 'kube answers a patch result strict decoding refuses with 422 on patch');
    assert.match(patch.json().message, /^ "" is invalid: patch: Invalid value: "\{.*\}": strict decoding error: duplicate field "spec.paused", unknown field "spec.zzz"$/);
    const jp = await fx.request('PATCH', `${deploys}/dup-warn`, {
      rawBody: '[{"op":"replace","path":"/spec/paused","path":"/spec/paused","value":true,"foo":1}]',
      headers: { 'content-type': 'application/json-patch+json' },
    });
    assert.equal(jp.status, 200, jp.text);
    assert.equal(jp.headers.warning, '299 - "json patch unknown field \\"[0].foo\\"", 299 - "json patch duplicate field \\"[0].path\\""');
  });

  it('a value of the wrong type is 400 with Go\'s decode message', async () => {
    const res = await fx.request('POST', cms, { body: { metadata: { name: 'typed' }, data: { a: 5 } } });
    assert.equal(res.status, 400);
    assert.equal(res.json().message, 'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string');
  });

  it('GET of a missing object is 404 with kube details', async () => {
    const res = await fx.request('GET', `${cms}/missing`);
    assert.equal(res.status, 404);
    assert.deepEqual(res.json(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'configmaps "missing" not found',
      reason: 'NotFound',
      details: { name: 'missing', kind: 'configmaps' },
      code: 404,
    });
  });

  it('unknown paths: a Status 404 under /api, plain text elsewhere; wrong methods 405', async () => {
    const unknown = await fx.request('GET', '/api/v1/namespaces/default/nothings');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json().reason, 'NotFound');
    const group = await fx.request('GET', '/apis/nothing.example.com/v1/things');
    assert.equal(group.status, 404);
    const other = await fx.request('GET', '/definitely-not-here');
    assert.equal(other.status, 404);
    assert.equal(other.text, '404 page not found\n');
    const post = await fx.request('POST', `${cms}/named`, { body: cm('named') });
    assert.equal(post.status, 405);
    assert.equal(post.json().reason, 'MethodNotAllowed');
  });
});

describe('update and optimistic concurrency', () => {
  it('PUT with a stale resourceVersion is 409 Conflict; with the current one it succeeds', async () => {
    const created = (await fx.request('POST', cms, { body: cm('upd') })).json();
    const ok = await fx.request('PUT', `${cms}/upd`, { body: { ...created, data: { a: '2' } } });
    assert.equal(ok.status, 200, ok.text);
    const stale = await fx.request('PUT', `${cms}/upd`, { body: { ...created, data: { a: '3' } } });
    assert.equal(stale.status, 409);
    const s = stale.json();
    assert.equal(s.reason, 'Conflict');
    assert.equal(s.message, 'Operation cannot be fulfilled on configmaps "upd": the object has been modified; please apply your changes to the latest version and try again');
    assert.deepEqual((await fx.request('GET', `${cms}/upd`)).json().data, { a: '2' });
  });

  it('PUT keeps uid and creationTimestamp and refuses a name that differs from the URL', async () => {
    const created = (await fx.request('POST', cms, { body: cm('keep') })).json();
    const body = { ...created, metadata: { ...(created.metadata as object), uid: undefined, creationTimestamp: '2000-01-01T00:00:00Z' } };
    const res = await fx.request('PUT', `${cms}/keep`, { body });
    assert.equal(res.status, 200);
    assert.equal(res.json().metadata.uid, created.metadata.uid);
    assert.equal(res.json().metadata.creationTimestamp, created.metadata.creationTimestamp);
    const cur = res.json() as { metadata: Record<string, unknown> };
    const renamed = await fx.request('PUT', `${cms}/keep`, { body: { ...cur, metadata: { ...cur.metadata, name: 'other' } } });
    assert.equal(renamed.status, 400);
    assert.equal(renamed.json().message, 'the name of the object (other) does not match the name on the URL (keep)');
  });

  it('PUT on a missing ConfigMap is 404; on a missing Lease it creates (201)', async () => {
    const cmRes = await fx.request('PUT', `${cms}/nothing-here`, { body: cm('nothing-here') });
    assert.equal(cmRes.status, 404);
    const lease = await fx.request('PUT', '/apis/coordination.k8s.io/v1/namespaces/default/leases/made-by-put', {
      body: { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'made-by-put' }, spec: { holderIdentity: 'me' } },
    });
    assert.equal(lease.status, 201, lease.text);
  });

  it('64 concurrent read-modify-write increments retrying on 409 end with the exact count', async () => {
    await fx.request('POST', cms, { body: cm('counter', { n: '0' }) });
    let conflicts = 0;
    const increment = async (): Promise<void> => {
      for (;;) {
        const cur = (await fx.request('GET', `${cms}/counter`)).json();
        cur.data.n = String(Number(cur.data.n) + 1);
        const res = await fx.request('PUT', `${cms}/counter`, { body: cur });
        if (res.status === 200) return;
        assert.equal(res.status, 409, res.text);
        conflicts++;
      }
    };
    await Promise.all(Array.from({ length: 64 }, increment));
    assert.equal((await fx.request('GET', `${cms}/counter`)).json().data.n, '64');
    assert.ok(conflicts > 0, 'the race produced conflicts that were retried');
  });
});

describe('patch', () => {
  it('merge patch per RFC 7386, JSON patch, and 415 for other content types', async () => {
    await fx.request('POST', cms, { body: cm('p', { a: '1', b: '2' }, { labels: { x: 'y' } }) });
    const merge = await fx.request('PATCH', `${cms}/p`, {
      rawBody: JSON.stringify({ data: { a: null, c: '3' }, metadata: { labels: { z: 'w' } } }),
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(merge.status, 200, merge.text);
    assert.deepEqual(merge.json().data, { b: '2', c: '3' });
    assert.deepEqual(merge.json().metadata.labels, { x: 'y', z: 'w' });
    const json = await fx.request('PATCH', `${cms}/p`, {
      rawBody: JSON.stringify([{ op: 'replace', path: '/data/b', value: 'B' }, { op: 'add', path: '/data/d', value: '4' }]),
      headers: { 'content-type': 'application/json-patch+json' },
    });
    assert.equal(json.status, 200, json.text);
    assert.deepEqual(json.json().data, { b: 'B', c: '3', d: '4' });
    const failedTest = await fx.request('PATCH', `${cms}/p`, {
      rawBody: JSON.stringify([{ op: 'test', path: '/data/b', value: 'nope' }]),
      headers: { 'content-type': 'application/json-patch+json' },
    });
    assert.equal(failedTest.status, 422);
    for (const ct of ['text/plain', 'application/json']) {
      const res = await fx.request('PATCH', `${cms}/p`, { rawBody: '{}', headers: { 'content-type': ct } });
      assert.equal(res.status, 415, ct);
      assert.equal(res.json().reason, 'UnsupportedMediaType');
    }
  });

  it('a patch carrying a stale resourceVersion is 409; a patch of a missing object is 404', async () => {
    const created = (await fx.request('POST', cms, { body: cm('pc') })).json();
    await fx.request('PATCH', `${cms}/pc`, { rawBody: '{"data":{"a":"2"}}', headers: { 'content-type': 'application/merge-patch+json' } });
    const stale = await fx.request('PATCH', `${cms}/pc`, {
      rawBody: JSON.stringify({ metadata: { resourceVersion: created.metadata.resourceVersion }, data: { a: '3' } }),
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(stale.status, 409);
    const missing = await fx.request('PATCH', `${cms}/no-such`, { rawBody: '{}', headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(missing.status, 404);
  });
});

describe('delete', () => {
  it('deletes with a success Status; a uid precondition that does not hold is 409', async () => {
    const created = (await fx.request('POST', cms, { body: cm('del') })).json();
    const wrong = await fx.request('DELETE', `${cms}/del`, { body: { preconditions: { uid: 'not-it' } } });
    assert.equal(wrong.status, 409);
    assert.match(wrong.json().message, /Precondition failed: UID in precondition: not-it, UID in object meta: /);
    const res = await fx.request('DELETE', `${cms}/del`, { body: { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: created.metadata.uid } } });
    assert.equal(res.status, 200);
    assert.deepEqual(res.json(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name: 'del', kind: 'configmaps', uid: created.metadata.uid },
    });
    assert.equal((await fx.request('GET', `${cms}/del`)).status, 404);
  });

  it('two-phase deletion: finalizers keep the object until the last one is removed', async () => {
    await fx.request('POST', cms, { body: cm('fin', {}, { finalizers: ['example.com/hold'] }) });
    const del = await fx.request('DELETE', `${cms}/fin`);
    assert.equal(del.status, 200);
    const marked = del.json();
    assert.equal(marked.kind, 'ConfigMap');
    assert.ok(marked.metadata.deletionTimestamp);
    assert.equal(marked.metadata.deletionGracePeriodSeconds, 0);
    const again = await fx.request('GET', `${cms}/fin`);
    assert.equal(again.status, 200);
    const addFinalizer = await fx.request('PATCH', `${cms}/fin`, {
      rawBody: JSON.stringify({ metadata: { finalizers: ['example.com/hold', 'example.com/new'] } }),
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(addFinalizer.status, 422, 'no new finalizers once deleting');
    const create = await fx.request('POST', cms, { body: cm('fin') });
    assert.equal(create.status, 409);
    assert.match(create.json().message, /^object is being deleted: configmaps "fin" already exists/);
    const release = await fx.request('PATCH', `${cms}/fin`, {
      rawBody: JSON.stringify({ metadata: { finalizers: null } }),
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(release.status, 200, release.text);
    assert.equal((await fx.request('GET', `${cms}/fin`)).status, 404);
  });

  it('propagationPolicy Orphan and Foreground add the garbage collector finalizers', async () => {
    await fx.request('POST', cms, { body: cm('orph') });
    const orphan = await fx.request('DELETE', `${cms}/orph`, { body: { propagationPolicy: 'Orphan' } });
    assert.deepEqual(orphan.json().metadata.finalizers, ['orphan']);
    await fx.request('POST', cms, { body: cm('fg') });
    const fg = await fx.request('DELETE', `${cms}/fg?propagationPolicy=Foreground`);
    assert.deepEqual(fg.json().metadata.finalizers, ['foregroundDeletion']);
    const bad = await fx.request('DELETE', `${cms}/fg`, { body: { propagationPolicy: 'Sideways' } });
    assert.equal(bad.status, 422);
    const both = await fx.request('DELETE', `${cms}/fg`, { body: { propagationPolicy: 'Orphan', orphanDependents: true } });
    assert.equal(both.status, 422);
  });

  it('deletecollection deletes what the selector matches and answers the list', async () => {
    for (const [n, team] of [['dc1', 'a'], ['dc2', 'a'], ['dc3', 'b']] as const) {
      await fx.request('POST', cms, { body: cm(n, {}, { labels: { team } }) });
    }
    const res = await fx.request('DELETE', `${cms}?labelSelector=team%3Da`);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json().kind, 'ConfigMapList');
    assert.deepEqual(res.json().items.map((i: any) => i.metadata.name).sort(), ['dc1', 'dc2']);
    const left = (await fx.request('GET', `${cms}?labelSelector=team`)).json().items.map((i: any) => i.metadata.name);
    assert.deepEqual(left, ['dc3']);
  });

  it('the immortal namespaces cannot be deleted', async () => {
    const res = await fx.request('DELETE', '/api/v1/namespaces/kube-system');
    assert.equal(res.status, 403);
    assert.equal(res.json().message, 'namespaces "kube-system" is forbidden: this namespace may not be deleted');
  });
});

describe('representations', () => {
  it('YAML in and out', async () => {
    const yamlBody = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-yaml\ndata:\n  k: v\n';
    const res = await fx.request('POST', cms, { rawBody: yamlBody, headers: { 'content-type': 'application/yaml', accept: 'application/yaml' } });
    assert.equal(res.status, 201, res.text);
    assert.match(String(res.headers['content-type']), /^application\/yaml/);
    const obj = parseYaml(res.text);
    assert.equal(obj.metadata.name, 'from-yaml');
    assert.deepEqual(obj.data, { k: 'v' });
  });

  it('406 for an Accept nothing can satisfy, with a Status', async () => {
    const res = await fx.request('GET', `${cms}/from-yaml`, { headers: { accept: 'application/xml' } });
    assert.equal(res.status, 406);
    assert.equal(res.json().reason, 'NotAcceptable');
    const protobufOnly = await fx.request('GET', `${cms}/from-yaml`, { headers: { accept: 'application/vnd.kubernetes.protobuf' } });
    assert.equal(protobufOnly.status, 200);
    assert.equal(protobufOnly.headers['content-type'], 'application/vnd.kubernetes.protobuf');
    const withFallback = await fx.request('GET', `${cms}/from-yaml`, { headers: { accept: 'application/vnd.kubernetes.protobuf, */*' } });
    assert.equal(withFallback.status, 200);
  });

  it('pretty output', async () => {
    const res = await fx.request('GET', `${cms}/from-yaml?pretty=true`);
    assert.match(res.text, /^\{\n {2}"kind": "ConfigMap",/);
  });

  it('a Table has the printer columns of the resource with PartialObjectMetadata rows', async () => {
    const res = await fx.request('GET', cms, { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' } });
    assert.equal(res.status, 200);
    const table = res.json();
    assert.equal(table.kind, 'Table');
    assert.equal(table.apiVersion, 'meta.k8s.io/v1');
    assert.deepEqual(table.columnDefinitions.map((c: any) => c.name), ['Name', 'Data', 'Age']);
    const row = table.rows.find((r: any) => r.cells[0] === 'from-yaml');
    assert.equal(row.cells[1], 1);
    assert.match(row.cells[2], /^\d+s$/);
    assert.equal(row.object.kind, 'PartialObjectMetadata');
    assert.equal(row.object.metadata.name, 'from-yaml');
    assert.match(table.metadata.resourceVersion, /^\d+$/);
    const none = (await fx.request('GET', `${cms}/from-yaml?includeObject=None`, { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } })).json();
    assert.equal(none.rows[0].object, undefined);
  });

  it('resources without a printer get the default Name and Created At columns', async () => {
    const roles = '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles';
    assert.equal((await fx.request('POST', roles, { body: { metadata: { name: 'r' }, rules: [] } })).status, 201);
    const table = (await fx.request('GET', roles, { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } })).json();
    assert.deepEqual(table.columnDefinitions.map((c: any) => [c.name, c.type, c.format]), [['Name', 'string', 'name'], ['Created At', 'date', '']]);
    assert.equal(table.rows[0].cells[0], 'r');
    assert.match(table.rows[0].cells[1], /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('large responses are gzipped when the client accepts gzip', async () => {
    const big = 'x'.repeat(40_000);
    for (let i = 0; i < 5; i++) await fx.request('POST', cms, { body: cm(`big-${i}`, { v: big }) });
    const res = await fx.request('GET', cms, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(res.headers['content-encoding'], 'gzip');
    const list = JSON.parse(gunzipSync(res.body).toString());
    assert.ok(list.items.length >= 5);
    const plain = await fx.request('GET', cms);
    assert.equal(plain.headers['content-encoding'], undefined);
  });
});

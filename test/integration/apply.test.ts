/**
 * Server-side apply and managed fields over HTTP: apply creates and updates, conflicts are 409
 * with the conflicting managers in the causes, force takes ownership, fields a manager stops
 * applying go, and every other write records an Update entry for its manager.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useServer } from '../support/server.js';

const fx = useServer();
const cms = '/api/v1/namespaces/default/configmaps';
const applyType = { 'content-type': 'application/apply-patch+yaml' };

function apply(name: string, manager: string | undefined, body: string, extra = ''): Promise<Awaited<ReturnType<typeof fx.request>>> {
  const q = [manager ? `fieldManager=${manager}` : '', extra].filter(Boolean).join('&');
  return fx.request('PATCH', `${cms}/${name}${q ? `?${q}` : ''}`, { rawBody: body, headers: applyType });
}

const cm = (data: Record<string, string>, labels?: Record<string, string>): string =>
  JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ssa', ...(labels ? { labels } : {}) }, data });

describe('server-side apply', () => {
  it('creates the object (201) and records an Apply entry', async () => {
    const res = await apply('ssa', 'alice', cm({ a: '1', b: '2' }, { team: 'x' }));
    assert.equal(res.status, 201, res.text);
    const obj = res.json();
    assert.deepEqual(obj.data, { a: '1', b: '2' });
    const entry = obj.metadata.managedFields.find((m: any) => m.manager === 'alice');
    assert.equal(entry.operation, 'Apply');
    assert.equal(entry.apiVersion, 'v1');
    assert.equal(entry.fieldsType, 'FieldsV1');
    assert.deepEqual(entry.fieldsV1, { 'f:data': { 'f:a': {}, 'f:b': {} }, 'f:metadata': { 'f:labels': { 'f:team': {} } } });
    assert.match(entry.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('a second manager changing an owned field conflicts (409 with causes); force takes it over', async () => {
    const res = await apply('ssa', 'bob', cm({ a: 'changed' }));
    assert.equal(res.status, 409);
    const s = res.json();
    assert.equal(s.reason, 'Conflict');
    assert.equal(s.message, 'Apply failed with 1 conflict: conflict with "alice": .data.a');
    assert.deepEqual(s.details.causes, [{ reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.data.a' }]);
    const forced = await apply('ssa', 'bob', cm({ a: 'changed' }), 'force=true');
    assert.equal(forced.status, 200, forced.text);
    assert.equal(forced.json().data.a, 'changed');
    const alice = forced.json().metadata.managedFields.find((m: any) => m.manager === 'alice');
    assert.deepEqual(alice.fieldsV1, { 'f:data': { 'f:b': {} }, 'f:metadata': { 'f:labels': { 'f:team': {} } } }, 'alice lost .data.a');
  });

  it('fields a manager stops applying are removed unless someone else owns them', async () => {
    const res = await apply('ssa', 'alice', cm({ b: '2' }));
    assert.equal(res.status, 200, res.text);
    const obj = res.json();
    assert.equal(obj.metadata.labels?.team, undefined, 'the label only alice applied is gone');
    assert.deepEqual(obj.data, { a: 'changed', b: '2' }, 'bob still owns .data.a');
  });

  it('fieldManager is required for apply; force is refused on other patches', async () => {
    const res = await apply('ssa', undefined, cm({ a: '1' }));
    assert.equal(res.status, 422);
    assert.match(res.json().message, /fieldManager: Required value: is required for apply patch/);
  });

  it('every other write records an Update entry, with the manager from the User-Agent by default', async () => {
    const current = (await fx.request('GET', `${cms}/ssa`)).json();
    current.data.c = '3';
    const put = await fx.request('PUT', `${cms}/ssa`, { body: current, headers: { 'user-agent': 'my-controller/v1.2.3 (linux/amd64)' } });
    assert.equal(put.status, 200, put.text);
    const update = put.json().metadata.managedFields.find((m: any) => m.manager === 'my-controller');
    assert.equal(update.operation, 'Update');
    assert.deepEqual(update.fieldsV1, { 'f:data': { 'f:c': {} } });
    const patched = await fx.request('PATCH', `${cms}/ssa?fieldManager=patcher`, { rawBody: '{"data":{"d":"4"}}', headers: { 'content-type': 'application/merge-patch+json' } });
    const p = patched.json().metadata.managedFields.find((m: any) => m.manager === 'patcher');
    assert.deepEqual(p.fieldsV1, { 'f:data': { 'f:d': {} } });
    const conflict = await apply('ssa', 'alice', cm({ b: '2', c: 'mine' }));
    assert.equal(conflict.status, 409, 'Update owners conflict with appliers too');
    assert.equal(conflict.json().message, 'Apply failed with 1 conflict: conflict with "my-controller" using v1: .data.c');
  });

  it('status writes get their own entry with subresource: status', async () => {
    const pods = '/api/v1/namespaces/default/pods';
    await fx.request('POST', pods, { body: { metadata: { name: 'sp' }, spec: { containers: [{ name: 'c', image: 'i' }] } } });
    const res = await fx.request('PATCH', `${pods}/sp/status?fieldManager=kubelet`, {
      rawBody: '{"status":{"phase":"Running"}}',
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(res.status, 200, res.text);
    const entry = res.json().metadata.managedFields.find((m: any) => m.manager === 'kubelet');
    assert.equal(entry.subresource, 'status');
    assert.deepEqual(entry.fieldsV1, { 'f:status': { 'f:phase': {} } });
  });

  it('apply with dryRun changes nothing', async () => {
    const before = (await fx.request('GET', `${cms}/ssa`)).json();
    const res = await apply('ssa', 'carol', cm({ e: '5' }), 'dryRun=All');
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json().data.e, '5');
    const after = (await fx.request('GET', `${cms}/ssa`)).json();
    assert.equal(after.metadata.resourceVersion, before.metadata.resourceVersion);
    const created = await apply('ssa-dry', 'carol', cm({ e: '5' }).replace('"name":"ssa"', '"name":"ssa-dry"'), 'dryRun=All');
    assert.equal(created.status, 201);
    assert.equal((await fx.request('GET', `${cms}/ssa-dry`)).status, 404);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Registry } from 'prom-client';
import type { RequestContext } from '../request/context.js';
import type { AuditBackend, AuditEvent, AuditLevel } from './interface.js';
import { registerAuditMetrics } from './metrics.js';
import { auditUserInfo, RequestAuditor } from './request-auditor.js';

function auditor(level: AuditLevel, opts: { omitManagedFields?: boolean; ctx?: RequestContext } = {}): { a: RequestAuditor; events: AuditEvent[] } {
  const events: AuditEvent[] = [];
  const backend: AuditBackend = { name: 'test', processEvents: (evs) => (events.push(...evs), true), shutdown: async () => undefined };
  const a = new RequestAuditor(
    {
      auditID: 'id',
      requestURI: '/api/v1/namespaces/ns/configmaps',
      verb: 'create',
      user: { username: 'alice' },
      sourceIPs: ['127.0.0.1'],
      userAgent: 'ua',
      objectRef: { resource: 'configmaps', namespace: 'ns', apiVersion: 'v1' },
      requestReceivedMicros: Date.UTC(2025, 0, 2) * 1000 + 5,
    },
    { level, omitStages: [], omitManagedFields: opts.omitManagedFields ?? false },
    { backend, metrics: registerAuditMetrics(new Registry()) },
    opts.ctx,
  );
  return { a, events };
}

const body = () => ({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'cm', uid: 'u1', resourceVersion: '7', managedFields: [{ manager: 'm' }] }, data: { a: '1' } });

describe('RequestAuditor', () => {
  it('Metadata: the request object completes the objectRef, nothing is kept', () => {
    const { a, events } = auditor('Metadata');
    a.emit('RequestReceived');
    a.setRequestObject(body());
    a.setResponseObject(body());
    a.emit('ResponseComplete', 201);
    assert.deepEqual(events[0]?.objectRef, { resource: 'configmaps', namespace: 'ns', apiVersion: 'v1' }, 'the event handed over earlier is unchanged');
    assert.deepEqual(events[1]?.objectRef, { resource: 'configmaps', namespace: 'ns', name: 'cm', uid: 'u1', apiVersion: 'v1', resourceVersion: '7' });
    assert.equal(events[1]?.requestObject, undefined);
    assert.equal(events[1]?.responseObject, undefined);
    assert.equal(events[0]?.requestReceivedTimestamp, '2025-01-02T00:00:00.000005Z');
  });

  it('Request keeps a copy of the request object; RequestResponse the answer too', () => {
    const { a, events } = auditor('RequestResponse', { omitManagedFields: true });
    const sent = body();
    a.setRequestObject(sent);
    sent.data.a = 'changed later';
    const answer = body();
    a.setResponseObject(answer);
    a.emit('ResponseComplete', 201);
    const { managedFields: _m, ...meta } = body().metadata;
    assert.deepEqual(events[0]?.requestObject, { ...body(), metadata: meta });
    assert.deepEqual(events[0]?.responseObject, { ...body(), metadata: meta });
    assert.ok(answer.metadata.managedFields, 'the answer itself is not changed');
    const r = auditor('Request');
    r.a.setRequestPatch({ data: { b: '2' } });
    r.a.setResponseObject(body());
    r.a.emit('ResponseComplete', 200);
    assert.deepEqual(r.events[0]?.requestObject, { data: { b: '2' } });
    assert.equal(r.events[0]?.responseObject, undefined);
    assert.deepEqual(r.events[0]?.objectRef, { resource: 'configmaps', namespace: 'ns', apiVersion: 'v1' }, 'a patch completes nothing');
  });

  it('takes a Status answer’s fields into responseStatus at every level', () => {
    const { a, events } = auditor('Metadata');
    a.setResponseObject({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'no', reason: 'Conflict', details: { name: 'cm' }, code: 409 });
    a.emit('ResponseComplete', 409);
    assert.deepEqual(events[0]?.responseStatus, { metadata: {}, status: 'Failure', message: 'no', reason: 'Conflict', details: { name: 'cm' }, code: 409 });
  });

  it('annotations: the first value of a key wins; keys sorted; earlier events unchanged', () => {
    const { a, events } = auditor('Metadata');
    a.annotate('z/x', '1');
    a.emit('RequestReceived');
    a.annotate('a/x', '2');
    a.annotate('z/x', 'other');
    a.emit('ResponseComplete', 200);
    assert.deepEqual(events[0]?.annotations, { 'z/x': '1' });
    assert.deepEqual(Object.keys(events[1]?.annotations ?? {}), ['a/x', 'z/x']);
    assert.equal(events[1]?.annotations?.['z/x'], '1');
  });

  it('shows the impersonated user once impersonation ran', () => {
    const ctx = { user: { name: 'alice', groups: [] } } as unknown as RequestContext;
    const { a, events } = auditor('Metadata', { ctx });
    a.emit('RequestReceived');
    ctx.impersonator = ctx.user;
    ctx.user = { name: 'bob', uid: 'b', groups: ['qa'], extra: { 'z.k': ['1'], 'a.k': ['2'] } };
    a.emit('ResponseComplete', 200);
    assert.equal(events[0]?.impersonatedUser, undefined);
    assert.deepEqual(events[1]?.impersonatedUser, { username: 'bob', uid: 'b', groups: ['qa'], extra: { 'a.k': ['2'], 'z.k': ['1'] } });
    assert.deepEqual(Object.keys(events[1]?.impersonatedUser?.extra ?? {}), ['a.k', 'z.k']);
    assert.deepEqual(auditUserInfo({ name: 'x', groups: [] }), { username: 'x' });
  });

  it('a backend that throws or rejects is a failed event, never an exception', async () => {
    const { a } = auditor('Metadata');
    (a as unknown as { sink: { backend: AuditBackend } }).sink.backend.processEvents = () => {
      throw new Error('x');
    };
    assert.equal(a.emit('RequestReceived'), false);
    (a as unknown as { sink: { backend: AuditBackend } }).sink.backend.processEvents = () => Promise.reject(new Error('x'));
    assert.equal(await a.emit('RequestReceived'), false);
  });
});

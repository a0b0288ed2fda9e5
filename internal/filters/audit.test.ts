import assert from 'node:assert/strict';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { StatusError } from '../apierrors/status-error.js';
import type { AuditBackend, AuditEvent, AuditRequirement } from '../audit/interface.js';
import { registerAuditMetrics } from '../audit/metrics.js';
import { toStatusError, writeStatus } from '../endpoints/negotiation/writer.js';
import { recordAuditedError, withAudit, type AuditFilterDeps } from './audit.js';
import { withAuditInit } from './audit-init.js';
import { withFailedAuthenticationAudit } from './authn-audit.js';
import type { Filter } from './interface.js';
import { attachRequestContext, type RequestState } from './request-context.js';

/** A backend that records events and answers as told (a promise when blocking). */
class RecordingBackend implements AuditBackend {
  readonly name = 'recording';
  events: AuditEvent[] = [];
  result: boolean = true;
  delayMs = 0;
  processEvents(events: readonly AuditEvent[]): boolean | Promise<boolean> {
    this.events.push(...events);
    if (this.delayMs === 0) return this.result;
    return new Promise((resolve) => setTimeout(() => resolve(this.result), this.delayMs));
  }
  async shutdown(): Promise<void> {}
}

type Handler = (req: IncomingMessage, res: ServerResponse, state: RequestState) => Promise<void>;

let requirement: AuditRequirement = { level: 'Metadata', omitStages: [], omitManagedFields: false };
const backend = new RecordingBackend();
const registry = new Registry();
const deps: AuditFilterDeps = { policy: { evaluate: () => requirement }, backend, metrics: registerAuditMetrics(registry) };
let handler: Handler = async (_req, res) => {
  res.end('ok');
};
const authenticate: Filter = (req, _res, state) => {
  if (req.headers.authorization === 'bad') throw new StatusError(401, 'Unauthorized', 'Unauthorized');
  state.ctx.user = { name: 'alice', groups: ['devs'] };
};
const filters = [withAuditInit(true), withFailedAuthenticationAudit(authenticate, deps), withAudit(deps) as Filter];

let server: Server;
let port = 0;

interface Answer {
  status: number;
  body: string;
  arrived: number;
  headers: Record<string, string | string[] | undefined>;
}

function call(path: string, headers: Record<string, string> = {}, abortAfterMs?: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, arrived: Date.now(), headers: res.headers }));
    });
    req.on('error', (err) => (abortAfterMs !== undefined ? resolve({ status: 0, body: '', arrived: Date.now(), headers: {} }) : reject(err)));
    req.end();
    if (abortAfterMs !== undefined) setTimeout(() => req.destroy(), abortAfterMs);
  });
}

const stages = (): string[] => backend.events.map((e) => `${e.stage} ${e.responseStatus?.code ?? '-'}`);

describe('audit filters', () => {
  before(async () => {
    server = createServer(async (req, res) => {
      const state = attachRequestContext(req, res);
      try {
        for (const f of filters) {
          const pending = f(req, res, state);
          if (pending) await pending;
          if (res.headersSent) return;
        }
        await handler(req, res, state);
      } catch (err) {
        const status = toStatusError(err);
        recordAuditedError(state.ctx, err, status.status);
        await writeStatus(req, res, state.query, status);
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const reset = (r: Partial<AuditRequirement> = {}): void => {
    requirement = { level: 'Metadata', omitStages: [], omitManagedFields: false, ...r };
    backend.events = [];
    backend.result = true;
    backend.delayMs = 0;
    handler = async (_req, res) => {
      res.end('ok');
    };
  };

  it('records RequestReceived then ResponseComplete with the code answered', async () => {
    reset();
    handler = async (_req, res) => {
      res.statusCode = 202;
      res.end('accepted');
    };
    const r = await call('/api/v1/namespaces/ns/pods/web', { 'audit-id': 'given' });
    assert.equal(r.status, 202);
    assert.equal(r.headers['audit-id'], 'given');
    assert.equal(r.headers['content-length'], '8', 'the answer is framed as end() would frame it');
    assert.equal(r.headers['transfer-encoding'], undefined);
    assert.deepEqual(stages(), ['RequestReceived -', 'ResponseComplete 202']);
    const [received, complete] = backend.events as [AuditEvent, AuditEvent];
    assert.equal(received.auditID, 'given');
    assert.deepEqual(received.user, { username: 'alice', groups: ['devs'] });
    assert.deepEqual(received.objectRef, { resource: 'pods', namespace: 'ns', name: 'web', apiVersion: 'v1' });
    assert.equal(received.stageTimestamp, received.requestReceivedTimestamp);
    assert.equal(complete.requestReceivedTimestamp, received.requestReceivedTimestamp);
    assert.notEqual(received, complete, 'each stage is a new event');
  });

  it('omits the policy’s stages, and does nothing at level None', async () => {
    reset({ omitStages: ['RequestReceived'] });
    await call('/api/v1/pods');
    assert.deepEqual(stages(), ['ResponseComplete 200']);
    reset({ level: 'None' });
    const r = await call('/api/v1/pods');
    assert.equal(r.body, 'ok');
    assert.deepEqual(stages(), []);
  });

  it('records a Panic event, not ResponseComplete, for an unexpected exception', async () => {
    reset();
    handler = async () => {
      throw new Error('boom');
    };
    const r = await call('/api/v1/pods');
    assert.equal(r.status, 500);
    assert.deepEqual(stages(), ['RequestReceived -', 'Panic 500']);
    assert.deepEqual(backend.events[1]?.responseStatus, { metadata: {}, status: 'Failure', message: "APIServer panic'd: boom", reason: 'InternalError', code: 500 });
  });

  it('records a StatusError’s status, message and reason', async () => {
    reset();
    handler = async () => {
      throw new StatusError(404, 'NotFound', 'pods "web" not found', { name: 'web', kind: 'pods' });
    };
    await call('/api/v1/namespaces/ns/pods/web');
    assert.deepEqual(backend.events[1]?.responseStatus, { metadata: {}, status: 'Failure', message: 'pods "web" not found', reason: 'NotFound', details: { name: 'web', kind: 'pods' }, code: 404 });
  });

  it('long-running requests get ResponseStarted when the header goes out', async () => {
    reset();
    handler = async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      await new Promise((r) => setTimeout(r, 20));
      res.end('{}');
    };
    await call('/api/v1/pods?watch=true');
    assert.deepEqual(stages(), ['RequestReceived -', 'ResponseStarted 200', 'ResponseComplete 200']);
    assert.ok(backend.events[2]!.stageTimestamp > backend.events[1]!.stageTimestamp);
  });

  it('a connection closed before any answer is "Connection closed early"', async () => {
    reset();
    let closed!: () => void;
    const done = new Promise<void>((r) => (closed = r));
    handler = (_req, res) =>
      new Promise<void>((resolve) => {
        res.once('close', () => {
          resolve();
          setImmediate(closed);
        });
      });
    await call('/api/v1/pods?watch=true', {}, 50);
    await done;
    assert.deepEqual(stages(), ['RequestReceived -', 'ResponseStarted 200', 'ResponseComplete 200']);
    assert.deepEqual(backend.events[2]?.responseStatus, { metadata: {}, status: 'Success', message: 'Connection closed early', code: 200 });
  });

  it('holds the answer until ResponseComplete was taken by a blocking backend', async () => {
    reset();
    backend.delayMs = 60;
    const start = Date.now();
    const r = await call('/api/v1/pods');
    assert.equal(r.body, 'ok');
    assert.deepEqual(stages(), ['RequestReceived -', 'ResponseComplete 200']);
    assert.ok(r.arrived - start >= 110, `answered after ${r.arrived - start} ms: both events were waited for`);
  });

  it('blocking-strict: a RequestReceived the backend could not take fails the request before the handler runs', async () => {
    reset();
    backend.result = false;
    backend.delayMs = 1;
    let ran = false;
    handler = async (_req, res) => {
      ran = true;
      res.end();
    };
    const r = await call('/api/v1/namespaces/ns/pods?x=<y>');
    assert.equal(r.status, 500);
    assert.equal(r.body, 'Internal Server Error: "/api/v1/namespaces/ns/pods?x=&lt;y&gt;": failed to store audit event\n');
    assert.equal(ran, false);
    assert.deepEqual(stages(), ['RequestReceived -']);
    assert.match(await registry.metrics(), /^apiserver_audit_requests_rejected_total 1$/m);
  });

  it('audits a failed authentication as one ResponseStarted event with no user', async () => {
    reset();
    const r = await call('/api/v1/pods', { authorization: 'bad' });
    assert.equal(r.status, 401);
    assert.deepEqual(stages(), ['ResponseStarted 401']);
    assert.deepEqual(backend.events[0]?.user, {});
    assert.deepEqual(backend.events[0]?.responseStatus, { metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
  });
});

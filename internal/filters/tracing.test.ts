import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, it } from 'node:test';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { activeTrace, inChildSpan } from '../observability/tracing/context.js';
import { createTracerProvider } from '../observability/tracing/provider.js';
import { parseRequestInfo } from '../request/request-info.js';
import type { UserInfo } from '../request/context.js';
import type { Filter } from './interface.js';
import { attachRequestContext } from './request-context.js';
import { requestSpanName, withTracing } from './tracing.js';

const log = { info() {}, warn() {}, error() {}, v() {} };
const clientTrace = '4bf92f3577b34da6a3ce929d0e0e4737';
const clientSpan = '00f067aa0ba902b7';

function fixture(rate: number) {
  const exporter = new InMemorySpanExporter();
  const provider = createTracerProvider({ endpoint: 'localhost:4317', samplingRatePerMillion: rate }, log, { spanProcessor: new SimpleSpanProcessor(exporter) });
  const scope = withTracing({ tracer: provider.getTracer('test') });
  /** Serves one request as user with headers; rest records the active trace and makes a child span. */
  async function serve(user: UserInfo | Error, headers: Record<string, string> = {}) {
    const req = {
      method: 'POST',
      url: '/api/v1/namespaces/default/configmaps?dryRun=All',
      headers: { host: '127.0.0.1:6443', 'user-agent': 'tracing.test', ...headers },
      httpVersion: '1.1',
      socket: { remoteAddress: '127.0.0.1', remotePort: 50000, localPort: 6443 },
    } as unknown as IncomingMessage;
    const res = Object.assign(new EventEmitter(), { statusCode: 201, headersSent: false, getHeader: (h: string) => (h === 'audit-id' ? 'a-1' : undefined) }) as unknown as ServerResponse;
    const state = attachRequestContext(req, res);
    const authenticate: Filter = (_q, _r, s) => {
      if (user instanceof Error) throw user;
      s.ctx.user = user;
    };
    let ranRest = false;
    await scope(req, res, state, authenticate, async () => {
      ranRest = true;
      const t = activeTrace();
      assert.ok(t, 'the rest runs in the request trace');
      await inChildSpan(t, 'authorization', undefined, async () => undefined);
    });
    res.emit('close');
    return { ranRest, spans: exporter.getFinishedSpans() };
  }
  return { serve, exporter };
}

const byName = (spans: ReadableSpan[], name: string): ReadableSpan => {
  const s = spans.find((x) => x.name === name);
  assert.ok(s, `span ${name} in ${spans.map((x) => x.name).join(', ')}`);
  return s;
};

describe('withTracing', () => {
  it('continues a privileged client trace even at rate 0, with authentication and the rest as children', async () => {
    const { serve } = fixture(0);
    const { spans } = await serve({ name: 'prom', groups: ['system:monitoring', 'system:authenticated'] }, { traceparent: `00-${clientTrace}-${clientSpan}-01` });
    const request = byName(spans, 'POST /api/v1/namespaces/{:namespace}/configmaps');
    assert.equal(request.spanContext().traceId, clientTrace);
    assert.equal(request.parentSpanContext?.spanId, clientSpan);
    assert.equal(request.kind, 1 /* SERVER */);
    assert.equal(request.attributes['http.method'], 'POST');
    assert.equal(request.attributes['http.target'], '/api/v1/namespaces/default/configmaps?dryRun=All');
    assert.equal(request.attributes['user_agent.original'], 'tracing.test');
    assert.equal(request.attributes['http.status_code'], 201);
    assert.equal(request.attributes['audit-id'], 'a-1');
    for (const child of ['authentication', 'authorization']) assert.equal(byName(spans, child).parentSpanContext?.spanId, request.spanContext().spanId, child);
  });

  it('starts its own trace for anyone else, linking theirs (otelhttp public endpoint)', async () => {
    const { serve } = fixture(1_000_000);
    const { spans } = await serve({ name: 'alice', groups: ['system:authenticated'] }, { traceparent: `00-${clientTrace}-${clientSpan}-01` });
    const request = byName(spans, 'POST /api/v1/namespaces/{:namespace}/configmaps');
    assert.notEqual(request.spanContext().traceId, clientTrace);
    assert.equal(request.parentSpanContext, undefined);
    assert.deepEqual(
      request.links.map((l) => [l.context.traceId, l.context.spanId]),
      [[clientTrace, clientSpan]],
    );
  });

  it('samples: nothing at rate 0 without a sampled trusted parent; an unsampled parent is not sampled at any rate', async () => {
    assert.deepEqual((await fixture(0).serve({ name: 'alice', groups: [] }, { traceparent: `00-${clientTrace}-${clientSpan}-01` })).spans, []);
    assert.deepEqual((await fixture(0).serve({ name: 'admin', groups: ['system:masters'] })).spans, []);
    assert.deepEqual((await fixture(1_000_000).serve({ name: 'admin', groups: ['system:masters'] }, { traceparent: `00-${clientTrace}-${clientSpan}-00` })).spans, []);
  });

  it('a request authentication refuses makes no span and goes no further', async () => {
    const { serve, exporter } = fixture(1_000_000);
    await assert.rejects(serve(new Error('Unauthorized')), /Unauthorized/);
    assert.deepEqual(exporter.getFinishedSpans(), []);
  });

  it('names spans as kube does', () => {
    const name = (method: string, path: string) => requestSpanName(method, parseRequestInfo(method, path, new URLSearchParams()));
    assert.equal(name('GET', '/api/v1/nodes/n1'), 'GET /api/v1/nodes/{:name}');
    assert.equal(name('PUT', '/apis/apps/v1/namespaces/ns/deployments/web/status'), 'PUT /apis/apps/v1/namespaces/{:namespace}/deployments/{:name}/status');
    assert.equal(name('GET', '/apis/apps/v1/deployments'), 'GET /apis/apps/v1/deployments');
    assert.equal(name('GET', '/healthz'), 'GET');
  });
});

/**
 * Spans for the server's outgoing HTTP calls (webhooks), as kube's otelhttp transport makes them:
 * a client span "HTTP <method>" under the current trace, and the W3C traceparent (and tracestate)
 * of that span in the request's headers, so that the webhook can continue the trace.
 */
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { activeTrace, failSpan, parentContext } from './context.js';

/** An outgoing call's span; finish it once, with the answer's status or the error. */
export interface OutgoingSpan {
  finish(status: number | undefined, err?: unknown): void;
}

/**
 * Starts the span of a call to url and adds its trace context to headers (mutated); undefined,
 * with headers untouched, when the caller runs in no trace (tracing off, or work outside requests).
 */
export function startOutgoingHttpSpan(url: URL, method: string, headers: Record<string, string>): OutgoingSpan | undefined {
  const t = activeTrace();
  if (!t) return undefined;
  const port = url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  const span = t.tracer.startSpan(
    `HTTP ${method}`,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'http.method': method,
        // otelhttp strips credentials from the URL it records.
        'http.url': `${url.protocol}//${url.host}${url.pathname}${url.search}`,
        'net.peer.name': url.hostname,
        'net.peer.port': port,
      },
    },
    parentContext(t),
  );
  const sc = span.spanContext();
  headers.traceparent = `00-${sc.traceId}-${sc.spanId}-${sc.traceFlags.toString(16).padStart(2, '0')}`;
  const state = sc.traceState?.serialize();
  if (state) headers.tracestate = state;
  let finished = false;
  return {
    finish(status, err) {
      if (finished) return;
      finished = true;
      if (status !== undefined) {
        span.setAttribute('http.status_code', status);
        // A client span fails on any 4xx or 5xx answer (otel's HTTP semantic conventions).
        if (status >= 400) span.setStatus({ code: SpanStatusCode.ERROR });
      } else if (err !== undefined) {
        failSpan(span, err);
      }
      span.end();
    },
  };
}

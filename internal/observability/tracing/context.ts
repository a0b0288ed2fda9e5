/**
 * Where the current trace lives: an AsyncLocalStorage created the first time a server turns
 * tracing on, never otherwise, so that without --tracing-config-file the request path pays one
 * undefined check where it asks for the current trace (no async-context tracking, no spans).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { ROOT_CONTEXT, SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';
import type { ActiveTrace } from './interface.js';

let storage: AsyncLocalStorage<ActiveTrace> | undefined;

/** The storage of the current trace, created on first use (only tracing's setup calls this). */
export function traceStorage(): AsyncLocalStorage<ActiveTrace> {
  storage ??= new AsyncLocalStorage<ActiveTrace>();
  return storage;
}

/** Whether any server in this process turned tracing on (the storage exists). */
export function traceStorageCreated(): boolean {
  return storage !== undefined;
}

/** The trace the calling code runs in, or undefined (always, when tracing was never turned on). */
export function activeTrace(): ActiveTrace | undefined {
  return storage?.getStore();
}

/** The context new spans under t get as parent: its span's, or the root once that span ended. */
export function parentContext(t: ActiveTrace | undefined): Context {
  return t && !t.ended ? t.context : ROOT_CONTEXT;
}

/** Marks span failed with err's message (an error span status, as otel's RecordError callers do). */
export function failSpan(span: Span, err: unknown): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
}

/**
 * Runs fn in a new child span of t named name, as the current trace for everything fn starts;
 * the span ends when fn returns or its promise settles, failed when it throws or rejects.
 */
export function inChildSpan<T>(t: ActiveTrace, name: string, attributes: Attributes | undefined, fn: () => T): T {
  const span = t.tracer.startSpan(name, attributes ? { attributes } : {}, parentContext(t));
  const child: ActiveTrace = { tracer: t.tracer, context: trace.setSpan(ROOT_CONTEXT, span), ended: false };
  const finish = (failed: boolean, err?: unknown): void => {
    if (failed) failSpan(span, err);
    child.ended = true;
    span.end();
  };
  let out: T;
  try {
    out = traceStorage().run(child, fn);
  } catch (err) {
    finish(true, err);
    throw err;
  }
  if (out instanceof Promise) {
    return out.then(
      (v: unknown) => {
        finish(false);
        return v;
      },
      (err: unknown) => {
        finish(true, err);
        throw err;
      },
    ) as T;
  }
  finish(false);
  return out;
}

/**
 * Test support: an OTLP trace receiver on loopback (opentelemetry.proto.collector.trace.v1
 * TraceService/Export over insecure gRPC, from test/support/otlp-trace.proto), keeping every span
 * it is sent, decoded into plain values, for tests to wait on and inspect.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';

/** An attribute value as the receiver decodes it. */
export type AttributeValue = string | number | boolean | undefined;

/** One received span (ids in lower-case hex, "" when absent). */
export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string;
  readonly name: string;
  /** SPAN_KIND_SERVER, SPAN_KIND_CLIENT, SPAN_KIND_INTERNAL, ... */
  readonly kind: string;
  readonly startNs: bigint;
  readonly endNs: bigint;
  readonly attributes: Readonly<Record<string, AttributeValue>>;
  readonly links: ReadonlyArray<{ readonly traceId: string; readonly spanId: string }>;
  readonly status: { readonly code: string; readonly message: string };
  /** The resource's attributes (service.name, ...). */
  readonly resource: Readonly<Record<string, AttributeValue>>;
  /** The instrumentation scope's name. */
  readonly scope: string;
}

/** A running receiver. */
export interface OtlpReceiver {
  /** "127.0.0.1:<port>", for a TracingConfiguration's endpoint. */
  readonly endpoint: string;
  /** Every span received, in order. */
  readonly spans: ReceivedSpan[];
  /** How many Export calls arrived. */
  readonly exports: number;
  /** Resolves with the received spans once pred holds for them (checked on each export); rejects after timeoutMs. */
  waitFor(pred: (spans: readonly ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<ReceivedSpan[]>;
  stop(): Promise<void>;
}

function protoPath(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    for (const candidate of [join(dir, 'otlp-trace.proto'), join(dir, 'test', 'support', 'otlp-trace.proto')]) {
      if (existsSync(candidate)) return candidate;
    }
    const up = dirname(dir);
    if (up === dir) throw new Error('test/support/otlp-trace.proto not found');
    dir = up;
  }
}

interface WireKeyValue {
  key: string;
  value?: { value?: string; string_value?: string; bool_value?: boolean; int_value?: string; double_value?: number };
}

function attributesOf(kvs: WireKeyValue[] | undefined): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const kv of kvs ?? []) {
    const v = kv.value;
    const which = v?.value;
    out[kv.key] =
      which === 'string_value' ? v?.string_value : which === 'bool_value' ? v?.bool_value : which === 'int_value' ? Number(v?.int_value) : which === 'double_value' ? v?.double_value : undefined;
  }
  return out;
}

const hex = (b: Buffer | undefined): string => (b && b.length > 0 ? b.toString('hex') : '');

/**
 * Starts a receiver on bind (gRPC address syntax; by default a loopback port the kernel picks,
 * whose "host:port" is then the endpoint; otherwise the endpoint is bind itself).
 */
export async function startOtlpReceiver(bind = '127.0.0.1:0'): Promise<OtlpReceiver> {
  const def = protoLoader.loadSync(protoPath(), { keepCase: true, longs: String, enums: String, defaults: true, oneofs: true });
  const pkg = grpc.loadPackageDefinition(def) as unknown as {
    opentelemetry: { proto: { collector: { trace: { v1: { TraceService: grpc.ServiceClientConstructor } } } } };
  };
  const spans: ReceivedSpan[] = [];
  const waiters = new Set<() => void>();
  let exports = 0;
  const server = new grpc.Server();
  server.addService(pkg.opentelemetry.proto.collector.trace.v1.TraceService.service, {
    Export(call: { request: { resource_spans: any[] } }, cb: (err: grpc.ServiceError | null, res?: unknown) => void) {
      exports++;
      for (const rs of call.request.resource_spans) {
        const resource = attributesOf(rs.resource?.attributes);
        for (const ss of rs.scope_spans ?? []) {
          for (const s of ss.spans ?? []) {
            spans.push({
              traceId: hex(s.trace_id),
              spanId: hex(s.span_id),
              parentSpanId: hex(s.parent_span_id),
              name: s.name,
              kind: s.kind,
              startNs: BigInt(s.start_time_unix_nano),
              endNs: BigInt(s.end_time_unix_nano),
              attributes: attributesOf(s.attributes),
              links: (s.links ?? []).map((l: { trace_id: Buffer; span_id: Buffer }) => ({ traceId: hex(l.trace_id), spanId: hex(l.span_id) })),
              status: { code: s.status?.code ?? 'STATUS_CODE_UNSET', message: s.status?.message ?? '' },
              resource,
              scope: ss.scope?.name ?? '',
            });
          }
        }
      }
      cb(null, {});
      for (const w of [...waiters]) w();
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(bind, grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  return {
    endpoint: bind === '127.0.0.1:0' ? `127.0.0.1:${port}` : bind,
    spans,
    get exports() {
      return exports;
    },
    waitFor(pred, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          if (!pred(spans)) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve([...spans]);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`spans not received within ${timeoutMs} ms; got: ${spans.map((s) => s.name).join(', ')}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    stop() {
      return new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
    },
  };
}

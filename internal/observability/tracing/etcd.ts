/**
 * etcd calls as spans, named and attributed as kube's etcd client (instrumented with otelgrpc)
 * names them: "etcdserverpb.KV/Range" and "etcdserverpb.KV/Txn", client spans under the current
 * request's span, or root spans (sampled by the configured rate) for work outside requests.
 */
import { SpanKind, type Tracer } from '@opentelemetry/api';
import type { EtcdInstrument } from '../../storage/etcd3/instrument.js';
import { activeTrace, failSpan, parentContext } from './context.js';

/** gRPC's status code names, for rpc.grpc.status_code (the etcd3 client's errors carry the number). */
function grpcCode(err: unknown): number {
  const code = (err as { code?: unknown } | undefined)?.code;
  return typeof code === 'number' ? code : 2; // Unknown
}

/** An EtcdInstrument starting one span per call with tracer. */
export function etcdTracing(tracer: Tracer): EtcdInstrument {
  return {
    start(operation, key) {
      const span = tracer.startSpan(
        `etcdserverpb.KV/${operation}`,
        {
          kind: SpanKind.CLIENT,
          attributes: { 'rpc.system': 'grpc', 'rpc.service': 'etcdserverpb.KV', 'rpc.method': operation, key },
        },
        parentContext(activeTrace()),
      );
      return (err) => {
        if (err === undefined) {
          span.setAttribute('rpc.grpc.status_code', 0);
        } else {
          span.setAttribute('rpc.grpc.status_code', grpcCode(err));
          failSpan(span, err);
        }
        span.end();
      };
    },
  };
}

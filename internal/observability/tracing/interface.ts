/**
 * APIServerTracing's shapes: the validated --tracing-config-file, the trace a piece of request work
 * belongs to, and what a running server's tracing offers the handler chain and storage. Nothing
 * here exists when tracing is off: no context storage, no tracer, no spans.
 */
import type { Context, Tracer } from '@opentelemetry/api';
import type { AdmissionChain } from '../../admission/chain.js';
import type { AdmissionObserver, AdmissionPlugin } from '../../admission/interface.js';
import type { Filter, FilterScope } from '../../filters/interface.js';
import type { EtcdInstrument } from '../../storage/etcd3/instrument.js';

/** A validated TracingConfiguration (component-base's tracing API), defaults applied. */
export interface TracingConfiguration {
  /** The OTLP gRPC collector: "host:port", "dns://[authority]/host:port", "unix:///path" or "unix-abstract://name". */
  readonly endpoint: string;
  /** Root spans sampled per million (0: only spans whose parent is sampled are recorded). */
  readonly samplingRatePerMillion: number;
}

/**
 * The trace that work running in a request's async context belongs to: the tracer and the
 * context whose span parents new spans. Held in an AsyncLocalStorage created only when tracing is on.
 */
export interface ActiveTrace {
  readonly tracer: Tracer;
  readonly context: Context;
  /** Set when that span has ended: async work outliving it (a cache started by a request) starts root spans. */
  ended: boolean;
}

/** A running server's tracing, handed to the chain and the etcd store when --tracing-config-file is set. */
export interface ServerTracing {
  /**
   * The request span (kube's WithTracing): runs the authentication filter it wraps, then starts
   * the request's span (a child of the client's trace context only for privileged users) and runs
   * the rest of the chain inside it.
   */
  readonly requestScope: FilterScope;
  /** filter, run in a child span of the request span named name (kube's filterlatency spans). */
  spanFilter(name: string, filter: Filter): Filter;
  /** The admission chain of plugins, its mutating and validating phases spans of the request. */
  admissionChain(plugins: readonly AdmissionPlugin[], observer?: AdmissionObserver): AdmissionChain;
  /** etcd calls as client spans (otelgrpc's "etcdserverpb.KV/Range", "etcdserverpb.KV/Txn"). */
  readonly etcd: EtcdInstrument;
  /** Exports every ended span now. */
  forceFlush(): Promise<void>;
  /** Flushes what is queued and stops exporting; call after the HTTP server has closed. */
  shutdown(): Promise<void>;
}

/**
 * The messages between the benchmark runner and a server child (server-process.ts): one request
 * per message with an id, answered by one reply carrying the same id.
 */

/** Memory figures in bytes, as process.memoryUsage() gives them plus the peaks a child tracked. */
export interface MemorySample {
  readonly rss: number;
  readonly heapUsed: number;
  readonly heapTotal: number;
  readonly external: number;
  readonly arrayBuffers: number;
}

/** What a child reports after `peak`: the marked baseline and the highest figures since. */
export interface PeakReport {
  readonly baseline: MemorySample;
  /** Highest heapUsed + external seen by the child's own sampler (every sampleIntervalMs). */
  readonly peakHeapExternal: number;
  /** Highest RSS seen by the sampler. */
  readonly peakRss: number;
  /** The kernel's peak RSS (VmHWM) since the mark, when /proc/self/clear_refs could reset it. */
  readonly hwmRss?: number;
  readonly samples: number;
  readonly now: MemorySample;
}

/** How the child is told what to be (JSON in the BENCH_SERVER environment variable). */
export interface ServerChildConfig {
  readonly mode: 'api' | 'bare';
  readonly etcdEndpoint: string;
  readonly certDir: string;
  /** Extra ServerOptions fields (e.g. watchCache) merged over the test defaults. */
  readonly extra?: Record<string, unknown>;
  /** kube-apiserver flags of the flag groups (authentication, authorization, ...), as the command line gives them. */
  readonly flags?: readonly string[];
  readonly sampleIntervalMs?: number;
}

/** Requests the runner sends. */
export type ChildRequest =
  | { readonly id: number; readonly type: 'memory'; readonly gc: boolean }
  | { readonly id: number; readonly type: 'mark' }
  | { readonly id: number; readonly type: 'peak' }
  | { readonly id: number; readonly type: 'set-body'; readonly body: string; readonly contentType: string }
  | { readonly id: number; readonly type: 'profile-start' }
  | { readonly id: number; readonly type: 'profile-stop'; readonly path: string }
  | { readonly id: number; readonly type: 'stop' };

/** The first message a child sends once it serves. */
export interface ReadyMessage {
  readonly type: 'ready';
  readonly port: number;
  readonly ca: string;
  readonly pid: number;
}

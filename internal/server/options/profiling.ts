/**
 * The profiling flags of kube-apiserver's FeatureOptions: --profiling (the /debug/pprof and
 * /debug/flags/v endpoints on the secure port), --debug-socket-path (the same endpoints on a unix
 * socket, without authentication or authorization) and --contention-profiling. Go's block
 * profiling records where goroutines wait on locks and channels; a Node.js server runs its
 * JavaScript on one thread and has neither, so --contention-profiling=true is refused rather than
 * accepted and ignored.
 */
import { boolFlag, FlagError } from './flag-values.js';
import type { FlagGroup } from './groups.js';

/** Validated profiling options. */
export interface ProfilingOptions {
  /** --profiling: serve /debug/pprof/ and /debug/flags/v on the secure port. */
  readonly enabled: boolean;
  /** --debug-socket-path ("" for none). */
  readonly debugSocketPath: string;
}

declare module './groups.js' {
  interface FlagGroupOptions {
    readonly profiling?: ProfilingOptions;
  }
}

/** kube's defaults: profiling on, no debug socket. */
export const defaultProfilingOptions: ProfilingOptions = { enabled: true, debugSocketPath: '' };

/** The --profiling, --contention-profiling and --debug-socket-path flags. */
export const profilingFlags: FlagGroup<'profiling'> = {
  register(y) {
    y.option('contention-profiling', { type: 'string', defaultDescription: 'false', describe: 'Enable block profiling, if profiling is enabled' });
    y.option('debug-socket-path', { type: 'string', describe: 'Use an unprotected (no authn/authz) unix-domain socket for profiling with the given path' });
    y.option('profiling', { type: 'string', defaultDescription: 'true', describe: 'Enable profiling via web interface host:port/debug/pprof/' });
  },
  validate(p) {
    const enabled = boolFlag('profiling', p.profiling, true);
    if (boolFlag('contention-profiling', p['contention-profiling'], false)) {
      throw new FlagError(
        '--contention-profiling is not supported: Go\'s block profiling records goroutines waiting on locks and channels, and a Node.js server (one JavaScript thread, no goroutines or locks) has nothing of the kind to profile; use the CPU profile at /debug/pprof/profile instead',
      );
    }
    const debugSocketPath = p['debug-socket-path'] === undefined ? '' : String(p['debug-socket-path']);
    return { profiling: { enabled, debugSocketPath } };
  },
};

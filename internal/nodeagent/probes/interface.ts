/**
 * The probers' shared shapes: what one probe attempt found (kubelet's probe.Result with its
 * output), and the three probe kinds.
 */

/** kubelet's probe.Result. */
export type ProbeResult = 'success' | 'warning' | 'failure' | 'unknown';

/** One probe attempt: a result and its output (the failure text kubelet puts in the event). */
export interface ProbeOutcome {
  readonly result: ProbeResult;
  readonly output: string;
  /** Set when the probe could not run at all (kubelet throws the attempt away). */
  readonly error?: Error;
}

/** Liveness, readiness or startup. */
export type ProbeType = 'liveness' | 'readiness' | 'startup';

/** "Liveness", "Readiness", "Startup" (kubelet's probeType.String()). */
export function probeTypeName(type: ProbeType): string {
  return type[0]!.toUpperCase() + type.slice(1);
}

/** Most bytes of output (exec) or body (HTTP) kubelet reads from a probe. */
export const maxProbeOutputBytes = 10 * 1024;

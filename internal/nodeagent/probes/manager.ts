/** PLACEHOLDER (owner: sources-probes helper): liveness, readiness and startup probes. */
import type { AgentContext, ProbeManager } from '../interface.js';

/** The probe manager. */
export function createProbeManager(_ctx: AgentContext): ProbeManager {
  throw new Error('placeholder: probes are not built yet');
}

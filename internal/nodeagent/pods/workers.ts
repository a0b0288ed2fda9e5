/** PLACEHOLDER (owner: pod-sync helper): per-pod workers running pods through CRI. */
import type { AgentContext, PodSyncHandler, ProbeManager, Stoppable } from '../interface.js';

/** The pod workers. */
export function createPodWorkers(_ctx: AgentContext, _deps: { probes: ProbeManager }): PodSyncHandler & Stoppable {
  throw new Error('placeholder: pod workers are not built yet');
}

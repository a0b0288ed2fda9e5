/** PLACEHOLDER (owner: sources-probes helper): the API, file and HTTP pod sources, merged, with mirror pods. */
import type { AgentContext, PodManager, PodSyncHandler } from '../interface.js';

/** Starts every configured pod source and feeds the merged desired pods to handler. */
export async function startPodManager(_ctx: AgentContext, _handler: PodSyncHandler): Promise<PodManager> {
  throw new Error('placeholder: pod sources are not built yet');
}

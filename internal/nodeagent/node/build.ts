/** PLACEHOLDER (owner: node-status helper): Node registration, status updates, Lease renewal, eviction. */
import type { AgentContext, PodSyncHandler, Stoppable, SummaryProvider } from '../interface.js';

/** Registers the Node (when --register-node), keeps its status and Lease current, evicts under pressure. */
export async function startNodeStatus(_ctx: AgentContext, _deps: { summary: SummaryProvider; pods: PodSyncHandler }): Promise<Stoppable> {
  throw new Error('placeholder: node status is not built yet');
}

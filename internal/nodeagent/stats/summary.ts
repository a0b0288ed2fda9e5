/** PLACEHOLDER (owner: node-status helper): kubelet's stats/v1alpha1 Summary from /proc, cgroups and CRI stats. */
import type { AgentContext, PodSyncHandler, SummaryProvider } from '../interface.js';

/** The node's Summary provider. */
export function createSummaryProvider(_ctx: AgentContext, _pods: PodSyncHandler): SummaryProvider {
  throw new Error('placeholder: the summary provider is not built yet');
}

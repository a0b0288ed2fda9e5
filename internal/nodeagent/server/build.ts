/** PLACEHOLDER (owner: kubelet-server helper): the kubelet server on --port, --read-only-port and --healthz-port. */
import type { AgentContext, PodSyncHandler, Stoppable, StreamingHandlers, SummaryProvider } from '../interface.js';

/** Starts the node agent's servers. */
export async function startKubeletServers(_ctx: AgentContext, _deps: { pods: PodSyncHandler; summary: SummaryProvider; streaming: StreamingHandlers }): Promise<Stoppable> {
  throw new Error('placeholder: the kubelet server is not built yet');
}

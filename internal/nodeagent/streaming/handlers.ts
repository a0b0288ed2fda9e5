/** PLACEHOLDER (owner: streaming helper): exec, attach and port-forward over SPDY and WebSocket. */
import type { AgentContext, PodSyncHandler, StreamingHandlers } from '../interface.js';

/** The streaming handlers. */
export function createStreamingHandlers(_ctx: AgentContext, _pods: PodSyncHandler): StreamingHandlers {
  throw new Error('placeholder: streaming is not built yet');
}

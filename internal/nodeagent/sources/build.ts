/**
 * The pod manager's factory: the API source always, the file source with --pod-manifest-path
 * (staticPodPath), the HTTP source with --manifest-url (staticPodURL), all merged by one
 * MergedPodManager feeding the PodSyncHandler.
 */
import type { AgentContext, PodManager, PodSyncHandler } from '../interface.js';
import { startApiSource } from './api-source.js';
import { MergedPodManager } from './pod-manager.js';

/** Starts every configured pod source and feeds the merged desired pods to handler. */
export async function startPodManager(ctx: AgentContext, handler: PodSyncHandler): Promise<PodManager> {
  const manager = new MergedPodManager(ctx, handler);
  const listener = (source: Parameters<MergedPodManager['update']>[0], pods: Parameters<MergedPodManager['update']>[1]): void => manager.update(source, pods);
  // The static pod sources (and the API server's pod defaulting and validation they use) load only
  // when configured: a node agent without them stays about 3 MB smaller.
  if (ctx.config.staticPodPath) {
    const { startFileSource } = await import('./file-source.js');
    manager.sources.push(startFileSource(ctx, ctx.config.staticPodPath, listener));
  }
  if (ctx.config.staticPodURL) {
    const { startHttpSource } = await import('./http-source.js');
    manager.sources.push(startHttpSource(ctx, ctx.config.staticPodURL, listener));
  }
  manager.sources.push(startApiSource(ctx, listener));
  return manager;
}

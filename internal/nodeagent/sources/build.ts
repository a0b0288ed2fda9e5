/**
 * The pod manager's factory: the API source always, the file source with --pod-manifest-path
 * (staticPodPath), the HTTP source with --manifest-url (staticPodURL), all merged by one
 * MergedPodManager feeding the PodSyncHandler.
 */
import type { AgentContext, PodManager, PodSyncHandler } from '../interface.js';
import { startApiSource } from './api-source.js';
import { startFileSource } from './file-source.js';
import { startHttpSource } from './http-source.js';
import { MergedPodManager } from './pod-manager.js';

/** Starts every configured pod source and feeds the merged desired pods to handler. */
export async function startPodManager(ctx: AgentContext, handler: PodSyncHandler): Promise<PodManager> {
  const manager = new MergedPodManager(ctx, handler);
  const listener = (source: Parameters<MergedPodManager['update']>[0], pods: Parameters<MergedPodManager['update']>[1]): void => manager.update(source, pods);
  if (ctx.config.staticPodPath) manager.sources.push(startFileSource(ctx, ctx.config.staticPodPath, listener));
  if (ctx.config.staticPodURL) manager.sources.push(startHttpSource(ctx, ctx.config.staticPodURL, listener));
  manager.sources.push(startApiSource(ctx, listener));
  return manager;
}

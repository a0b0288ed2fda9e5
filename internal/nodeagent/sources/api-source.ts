/**
 * The API source (kubelet's NewSourceApiserver): a reflector over the pods bound to this node
 * (fieldSelector spec.nodeName=<node>): list, then watch from the list's resourceVersion with
 * bookmarks; a 410 Expired (as an answer or an ERROR event) or a dropped watch leads to a relist
 * after a back-off. Every change reports the whole set, as kubelet's UndeltaStore does.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { ApiError } from '../client/api-client.js';
import type { AgentContext } from '../interface.js';
import { Backoff, sleep } from './backoff.js';
import type { PodSetListener, PodSource } from './interface.js';

/** Starts the API source; listener gets the node's pods after the list and after every event. */
export function startApiSource(ctx: AgentContext, listener: PodSetListener): PodSource {
  const abort = new AbortController();
  const signal = AbortSignal.any([abort.signal, ctx.signal]);
  const pods = new Map<string, KubeObject>();
  const fieldSelector = `spec.nodeName=${ctx.nodeName}`;
  const backoff = new Backoff();
  const source = { name: 'api' as const, synced: false, stop: () => abort.abort() };
  const report = (): void => {
    source.synced = true;
    listener('api', [...pods.values()]);
  };

  const listAndWatch = async (): Promise<void> => {
    const list = await ctx.client.get<{ metadata: { resourceVersion?: string }; items: KubeObject[] }>('/api/v1/pods', {
      query: { fieldSelector },
      signal,
    });
    pods.clear();
    for (const pod of list.items ?? []) pods.set(pod.metadata.uid ?? '', pod);
    report();
    let rv = list.metadata.resourceVersion ?? '';
    backoff.reset();
    // Watch until the stream ends or expires; a normal end (the server's timeout) rewatches from rv.
    for (;;) {
      const query = { fieldSelector, resourceVersion: rv, allowWatchBookmarks: 'true', timeoutSeconds: String(300 + Math.floor(Math.random() * 300)) };
      for await (const ev of ctx.client.watch('/api/v1/pods', query, signal)) {
        if (ev.type === 'ERROR') {
          const status = ev.object as unknown as { code?: number; reason?: string; message?: string };
          throw new ApiError(status.code ?? 500, status.reason ?? '', status.message ?? 'watch error');
        }
        rv = ev.object.metadata?.resourceVersion ?? rv;
        if (ev.type === 'BOOKMARK') continue;
        const uid = ev.object.metadata.uid ?? '';
        if (ev.type === 'DELETED') pods.delete(uid);
        else pods.set(uid, ev.object);
        report();
      }
      if (signal.aborted) return;
    }
  };

  void (async () => {
    while (!signal.aborted) {
      try {
        await listAndWatch();
      } catch (err) {
        if (signal.aborted) break;
        const gone = err instanceof ApiError && err.code === 410;
        ctx.log.info(gone ? 'Pod watch expired; relisting' : `Pod list/watch failed; relisting after a back-off: ${(err as Error).message}`);
        await sleep(gone ? 0 : backoff.next(), signal);
      }
    }
  })();
  return source;
}

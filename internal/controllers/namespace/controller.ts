/**
 * The namespace controller: empties terminating namespaces. For each namespace with a
 * deletionTimestamp it deletes every namespaced object in it, waits (retrying with backoff) until
 * none is left — objects with finalizers or grace periods may linger — reporting what remains in
 * the namespace's conditions, then removes the `kubernetes` finalizer and deletes the namespace.
 * With OrderedNamespaceDeletion, pods go first.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { hasReason } from '../../apierrors/status-error.js';
import type { Logger } from '../../observability/logging.js';
import { kubernetesFinalizer, specFinalizers } from '../../registry/core/namespaces/strategy.js';
import { listEverything, type RestStorage } from '../../registry/interface.js';
import { internalContext } from '../../request/context.js';

/** The storage of one namespaced resource whose objects a namespace holds. */
export interface NamespacedContent {
  readonly group: string;
  readonly resource: string;
  readonly storage: RestStorage;
}

/** What the controller acts through. */
export interface NamespaceControllerDeps {
  readonly namespaces: RestStorage;
  readonly namespaceStatus: RestStorage;
  readonly finalize: RestStorage;
  /** The namespaced resources served now (read at every pass: custom resources come and go). */
  readonly contents: readonly NamespacedContent[] | (() => readonly NamespacedContent[]);
  readonly log: Logger;
  /** How often every namespace is looked at again, besides watch events. */
  readonly resyncMs?: number;
  /**
   * The OrderedNamespaceDeletion gate (kube 1.33: on): pods are deleted first, and nothing else
   * in the namespace is deleted while any pod remains (so that a pod never outlives the network
   * policies, secrets or config maps it runs with).
   */
  readonly orderedDeletion?: boolean;
}


// Kept short: an object's last finalizer can go at any time and nothing else wakes the namespace up.
const maxBackoffMs = 5_000;

/** Runs the namespace deletion loop. */
export class NamespaceController {
  private readonly pending = new Set<string>();
  private readonly backoff = new Map<string, number>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private running = false;
  private stopped = false;
  private resync: NodeJS.Timeout | undefined;
  private watchStop: (() => void) | undefined;

  constructor(private readonly deps: NamespaceControllerDeps) {}

  /** Starts watching namespaces; returns at once. */
  start(): void {
    void this.watchLoop();
    this.resync = setInterval(() => void this.enqueueAll(), this.deps.resyncMs ?? 30_000);
    this.resync.unref();
  }

  /** Stops the loop and its timers. */
  stop(): void {
    this.stopped = true;
    if (this.resync) clearInterval(this.resync);
    for (const t of this.timers.values()) clearTimeout(t);
    this.watchStop?.();
  }

  private async watchLoop(): Promise<void> {
    while (!this.stopped) {
      try {
        const ctx = internalContext({ verb: 'watch', resource: 'namespaces' });
        const watch = await (this.deps.namespaces.watch as NonNullable<RestStorage['watch']>).call(this.deps.namespaces, ctx, {
          ...listEverything,
          watch: true,
        });
        this.watchStop = () => watch.stop();
        // Stopped while the watch was being opened: close it rather than leave it running.
        if (this.stopped) watch.stop();
        for await (const ev of watch) {
          if (this.stopped) break;
          if (ev.type === 'ERROR') break;
          if (ev.type === 'BOOKMARK' || ev.type === 'DELETED') continue;
          if (ev.object.metadata.deletionTimestamp) this.enqueue(ev.object.metadata.name ?? '');
        }
      } catch (err) {
        if (!this.stopped) this.deps.log.warn(`namespace controller: watch failed: ${(err as Error).message}`);
      }
      if (!this.stopped) await new Promise((r) => setTimeout(r, 1000));
    }
  }

  private async enqueueAll(): Promise<void> {
    try {
      const ctx = internalContext({ verb: 'list', resource: 'namespaces' });
      const list = await (this.deps.namespaces.list as NonNullable<RestStorage['list']>).call(this.deps.namespaces, ctx, listEverything);
      for (const ns of list.items) if (ns.metadata.deletionTimestamp) this.enqueue(ns.metadata.name ?? '');
    } catch (err) {
      this.deps.log.warn(`namespace controller: resync failed: ${(err as Error).message}`);
    }
  }

  /** Queues a namespace for a sync (tests and watch events). */
  enqueue(name: string): void {
    if (!name || this.stopped) return;
    this.pending.add(name);
    void this.drain();
  }

  private async drain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.pending.size > 0 && !this.stopped) {
        const name = this.pending.values().next().value as string;
        this.pending.delete(name);
        let done = false;
        try {
          done = await this.sync(name);
        } catch (err) {
          if (!this.stopped) this.deps.log.warn(`namespace controller: syncing ${name} failed: ${(err as Error).message}`);
        }
        if (done) this.backoff.delete(name);
        else this.retryLater(name);
      }
    } finally {
      this.running = false;
    }
  }

  private retryLater(name: string): void {
    if (this.timers.has(name) || this.stopped) return;
    const delay = Math.min((this.backoff.get(name) ?? 250) * 2, maxBackoffMs);
    this.backoff.set(name, delay);
    const t = setTimeout(() => {
      this.timers.delete(name);
      this.enqueue(name);
    }, delay);
    t.unref();
    this.timers.set(name, t);
  }

  /** One pass over a namespace; true when nothing is left to do for it. */
  async sync(name: string): Promise<boolean> {
    const ctx = internalContext({ verb: 'get', resource: 'namespaces', name });
    let ns: KubeObject;
    try {
      ns = await (this.deps.namespaces.get as NonNullable<RestStorage['get']>).call(this.deps.namespaces, ctx, name, { resourceVersion: '' });
    } catch (err) {
      if (hasReason(err, 'NotFound')) return true;
      throw err;
    }
    if (!ns.metadata.deletionTimestamp) return true;
    if (specFinalizers(ns).includes(kubernetesFinalizer)) {
      const remaining = await this.deleteContent(name);
      await this.reportConditions(name, remaining);
      if (remaining.counts.size > 0) return false;
      await this.finalize(name);
    }
    const delCtx = internalContext({ verb: 'delete', resource: 'namespaces', name });
    try {
      const res = await (this.deps.namespaces.delete as NonNullable<RestStorage['delete']>).call(this.deps.namespaces, delCtx, name, { dryRun: false });
      return res.deleted || (res.object.metadata.finalizers?.length ?? 0) > 0;
    } catch (err) {
      if (hasReason(err, 'NotFound')) return true;
      throw err;
    }
  }

  private async deleteContent(namespace: string): Promise<{ counts: Map<string, number>; finalizers: Map<string, number> }> {
    const counts = new Map<string, number>();
    const finalizers = new Map<string, number>();
    let contents = typeof this.deps.contents === 'function' ? this.deps.contents() : this.deps.contents;
    if (this.deps.orderedDeletion) {
      const isPods = (c: NamespacedContent): boolean => c.group === '' && c.resource === 'pods';
      await this.deleteEach(namespace, contents.filter(isPods), counts, finalizers);
      if (counts.size > 0) return { counts, finalizers };
      contents = contents.filter((c) => !isPods(c));
    }
    await this.deleteEach(namespace, contents, counts, finalizers);
    return { counts, finalizers };
  }

  /** Deletes every object of the given resources in the namespace, counting what remains (and its finalizers). */
  private async deleteEach(namespace: string, contents: readonly NamespacedContent[], counts: Map<string, number>, finalizers: Map<string, number>): Promise<void> {
    for (const content of contents) {
      const storage = content.storage;
      const ctx = internalContext({ verb: 'deletecollection', group: content.group, resource: content.resource, namespace });
      if (storage.deleteCollection) {
        await storage.deleteCollection(ctx, listEverything, { dryRun: false, propagationPolicy: 'Background' });
      }
      if (!storage.list) continue;
      const left = await storage.list(internalContext({ verb: 'list', group: content.group, resource: content.resource, namespace }), listEverything);
      if (left.items.length > 0) {
        counts.set(content.group ? `${content.resource}.${content.group}` : `${content.resource}.`, left.items.length);
        for (const item of left.items) for (const f of item.metadata.finalizers ?? []) finalizers.set(f, (finalizers.get(f) ?? 0) + 1);
      }
    }
  }

  private async reportConditions(name: string, remaining: { counts: Map<string, number>; finalizers: Map<string, number> }): Promise<void> {
    const now = new Date(Math.floor(Date.now() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
    const content = [...remaining.counts].map(([r, n]) => `${r} has ${n} resource instances`).join(', ');
    const fins = [...remaining.finalizers].map(([f, n]) => `${f} in ${n} resource instances`).join(', ');
    const conditions = [
      {
        type: 'NamespaceContentRemaining',
        status: remaining.counts.size > 0 ? 'True' : 'False',
        reason: remaining.counts.size > 0 ? 'SomeResourcesRemain' : 'ContentRemoved',
        message: remaining.counts.size > 0 ? `Some resources are remaining: ${content}` : 'All content successfully removed',
        lastTransitionTime: now,
      },
      {
        type: 'NamespaceFinalizersRemaining',
        status: remaining.finalizers.size > 0 ? 'True' : 'False',
        reason: remaining.finalizers.size > 0 ? 'SomeFinalizersRemain' : 'ContentHasNoFinalizers',
        message: remaining.finalizers.size > 0 ? `Some content in the namespace has finalizers remaining: ${fins}` : 'All content-preserving finalizers finished',
        lastTransitionTime: now,
      },
    ];
    const ctx = internalContext({ verb: 'update', resource: 'namespaces', name, subresource: 'status' });
    try {
      await (this.deps.namespaceStatus.update as NonNullable<RestStorage['update']>).call(this.deps.namespaceStatus, ctx, name, {
        updatedObject: async (_c, old) => {
          const obj = structuredClone(old as KubeObject);
          const status = (obj.status ?? {}) as { conditions?: Array<{ type: string; status: string; lastTransitionTime?: string }> };
          const previous = new Map((status.conditions ?? []).map((c) => [c.type, c]));
          status.conditions = conditions.map((c) => {
            const prev = previous.get(c.type);
            return prev && prev.status === c.status ? { ...c, lastTransitionTime: prev.lastTransitionTime ?? c.lastTransitionTime } : c;
          });
          obj.status = status;
          return obj;
        },
      }, { dryRun: false });
    } catch (err) {
      if (!hasReason(err, 'NotFound') && !hasReason(err, 'Conflict')) throw err;
    }
  }

  private async finalize(name: string): Promise<void> {
    const ctx = internalContext({ verb: 'update', resource: 'namespaces', name, subresource: 'finalize' });
    await (this.deps.finalize.update as NonNullable<RestStorage['update']>).call(this.deps.finalize, ctx, name, {
      updatedObject: async (_c, old) => {
        const obj = structuredClone(old as KubeObject);
        obj.spec = { ...((obj.spec as object | undefined) ?? {}), finalizers: specFinalizers(obj).filter((f) => f !== kubernetesFinalizer) };
        return obj;
      },
    }, { dryRun: false });
  }
}

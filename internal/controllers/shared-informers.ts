/**
 * Shared informers: one Informer per resource for every admission plugin and in-server controller
 * that asks for it (client-go's SharedInformerFactory). An informer starts on its first get() and
 * every informer stops when stop() is called (server shutdown).
 */
import type { Logger } from '../observability/logging.js';
import type { RestStorage } from '../registry/interface.js';
import { Informer } from './informer.js';

/** Finds a resource's storage (the installer's storageOf). */
export type StorageLookup = (group: string, resource: string, subresource?: string) => RestStorage | undefined;

/** The informers of one server. */
export class SharedInformers {
  private readonly informers = new Map<string, Informer>();
  private stopped = false;

  constructor(
    private readonly storageOf: StorageLookup,
    private readonly log: Logger,
  ) {}

  /** The started informer of group/resource; throws when the resource is not served. */
  get(group: string, resource: string): Informer {
    const informer = this.tryGet(group, resource);
    if (!informer) throw new Error(`no storage for ${resource}${group ? `.${group}` : ''}: the resource is not served (see --runtime-config)`);
    return informer;
  }

  /** The started informer of group/resource, or undefined when the resource is not served (--runtime-config). */
  tryGet(group: string, resource: string): Informer | undefined {
    const key = `${resource}.${group}`;
    let informer = this.informers.get(key);
    if (!informer) {
      const storage = this.storageOf(group, resource);
      if (!storage) return undefined;
      informer = new Informer({ storage, group, resource, log: this.log });
      this.informers.set(key, informer);
      if (!this.stopped) informer.start();
    }
    return informer;
  }

  /** Stops every informer (and any started later). */
  stop(): void {
    this.stopped = true;
    for (const i of this.informers.values()) i.stop();
  }
}

/**
 * The storage one served version of a custom resource reads and writes through when it is not the
 * storage version (kube's CR codec with its converter): writes are converted to the storage version
 * before they reach the watch cache and etcd, reads (get, list items, watch events) are converted to
 * the served version and defaulted in it. A list is converted in one call; the cache's encoded bytes
 * are dropped, since they are the storage version's JSON.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import type {
  CreateOptions,
  DeleteOptions,
  GetOptions,
  GuaranteedUpdateOptions,
  ListOptions,
  ListResult,
  Storage,
  StorageWatch,
  StorageWatchEvent,
} from '../../storage/interface.js';
import type { CustomResourceConverter } from '../interface.js';

/** What the converting storage needs. */
export interface ConvertingStorageOptions {
  /** The resource's own storage (its watch cache), holding objects in the storage version. */
  readonly base: Storage;
  readonly converter: CustomResourceConverter;
  /** "group/version" of the served version. */
  readonly servedApiVersion: string;
  /** "group/version" of the storage version. */
  readonly storageApiVersion: string;
  /** Defaulting of the served version, applied to objects converted on read; mutates its argument. */
  readonly defaults?: (obj: KubeObject) => void;
}

/** Storage in a served version over storage in the storage version. */
export class ConvertingStorage implements Storage {
  constructor(private readonly o: ConvertingStorageOptions) {}

  private async toStorage(obj: KubeObject): Promise<KubeObject> {
    return (await this.o.converter.convert([obj], this.o.storageApiVersion))[0] as KubeObject;
  }

  private async toServedAll(objs: readonly KubeObject[]): Promise<KubeObject[]> {
    if (objs.length === 0) return [];
    const out = await this.o.converter.convert(objs, this.o.servedApiVersion);
    const defaults = this.o.defaults;
    if (defaults) for (const x of out) defaults(x);
    return out;
  }

  private async toServed(obj: KubeObject): Promise<KubeObject> {
    return (await this.toServedAll([obj]))[0] as KubeObject;
  }

  async create(key: string, obj: KubeObject, opts?: CreateOptions): Promise<KubeObject> {
    const stored = await this.toStorage(obj);
    return await this.toServed(await this.o.base.create(key, stored, opts));
  }

  async get(key: string, opts: GetOptions): Promise<KubeObject> {
    return await this.toServed(await this.o.base.get(key, opts));
  }

  async getList(key: string, opts: ListOptions): Promise<ListResult> {
    const list = await this.o.base.getList(key, opts);
    const { encodedItems: _bytes, items, ...rest } = list;
    return { ...rest, items: await this.toServedAll(items) };
  }

  async guaranteedUpdate(key: string, opts: GuaranteedUpdateOptions): Promise<KubeObject> {
    const { cachedExisting: _cached, tryUpdate, ...rest } = opts;
    const stored = await this.o.base.guaranteedUpdate(key, {
      ...rest,
      tryUpdate: async (current) => {
        // A missing object (ignoreNotFound) arrives empty and leaves as the caller built it.
        const exists = Boolean(current.metadata.resourceVersion);
        const served = exists ? await this.toServed(current) : current;
        const next = await tryUpdate(served);
        if (next === served) return current;
        return await this.toStorage(next);
      },
    });
    return await this.toServed(stored);
  }

  async delete(key: string, opts: DeleteOptions): Promise<KubeObject> {
    const { cachedExisting: _cached, validateDeletion, ...rest } = opts;
    const gone = await this.o.base.delete(key, {
      ...rest,
      ...(validateDeletion ? { validateDeletion: async (current: KubeObject) => await validateDeletion(await this.toServed(current)) } : {}),
    });
    return await this.toServed(gone);
  }

  async watch(key: string, opts: ListOptions): Promise<StorageWatch> {
    const inner = await this.o.base.watch(key, opts);
    const convert = async (ev: StorageWatchEvent): Promise<StorageWatchEvent> => {
      if (ev.type === 'ERROR' || ev.type === 'BOOKMARK') return ev;
      return { type: ev.type, object: await this.toServed(ev.object), ...(ev.key !== undefined ? { key: ev.key } : {}) };
    };
    return {
      stop: () => inner.stop(),
      [Symbol.asyncIterator]: async function* () {
        for await (const ev of inner) yield await convert(ev);
      },
    };
  }

  currentRevision(): Promise<string> {
    return this.o.base.currentRevision();
  }

  readinessCheck(): Promise<void> {
    return this.o.base.readinessCheck();
  }
}

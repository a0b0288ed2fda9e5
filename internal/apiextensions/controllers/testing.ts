/**
 * Test support for the CRD controllers: an in-memory CRD store that plays both the informer and
 * customresourcedefinitions/status (each write bumps resourceVersion and is delivered to the
 * handlers, removing the last finalizer of a deleted CRD removes it), and CRD builders.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import type { InformerHandlers } from '../../controllers/informer.js';
import type { CrdStatusUpdate } from './crd-status.js';
import type { CrdControllerDeps, CrdInformer } from './interface.js';

/** An in-memory CRD store with informer semantics. */
export class FakeCrds implements CrdInformer {
  private readonly items = new Map<string, KubeObject>();
  private readonly handlers: InformerHandlers[] = [];
  private rv = 1;
  readonly synced = Promise.resolve();
  /** Every status write, in order (copies). */
  readonly writes: KubeObject[] = [];

  get(key: string): KubeObject | undefined {
    return this.items.get(key);
  }

  list(): IterableIterator<KubeObject> {
    return this.items.values();
  }

  addHandlers(h: InformerHandlers): void {
    this.handlers.push(h);
    for (const obj of this.items.values()) h.added?.(obj);
  }

  /** Creates or replaces a CRD (as a client would), delivering the event. */
  put(crd: KubeObject): KubeObject {
    const obj = structuredClone(crd);
    obj.metadata.resourceVersion = String(++this.rv);
    obj.metadata.generation ??= 1;
    const old = this.items.get(obj.metadata.name ?? '');
    this.items.set(obj.metadata.name ?? '', obj);
    for (const h of this.handlers) {
      if (old) h.updated?.(obj, old);
      else h.added?.(obj);
    }
    return obj;
  }

  /** Removes a CRD, delivering the event. */
  remove(name: string): void {
    const old = this.items.get(name);
    if (!old) return;
    this.items.delete(name);
    for (const h of this.handlers) h.deleted?.(old);
  }

  /** The status writer over this store. */
  readonly updateStatus: CrdStatusUpdate = async (name, change) => {
    const current = this.items.get(name);
    if (!current) return undefined;
    const next = change(structuredClone(current));
    if (!next) return { object: current, wrote: false };
    this.writes.push(structuredClone(next));
    if (next.metadata.deletionTimestamp && (next.metadata.finalizers ?? []).length === 0) {
      this.remove(name);
      return { object: next, wrote: true };
    }
    return { object: this.put(next), wrote: true };
  };

  /** Controller dependencies over this store. */
  deps(): CrdControllerDeps {
    return { informer: this, updateStatus: this.updateStatus, log: { info: () => undefined, warn: () => undefined }, retryMs: 20 };
  }
}

/** A CRD in stored form: <plural>.<group> with the given names. */
export function crd(group: string, names: { plural: string; kind: string; singular?: string; shortNames?: string[]; listKind?: string }): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1beta1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${names.plural}.${group}`, uid: `uid-${names.plural}` },
    spec: {
      group,
      names: { singular: names.kind.toLowerCase(), listKind: `${names.kind}List`, ...names },
      scope: 'Namespaced',
      versions: [{ name: 'v1', served: true, storage: true }],
    },
    status: { acceptedNames: { plural: '', kind: '' } },
  };
}

/** Resolves once check() holds, polling; rejects after timeoutMs. */
export async function until(what: string, check: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

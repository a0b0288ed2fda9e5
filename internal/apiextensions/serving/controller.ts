/**
 * The CRD serving controller (kube's crdHandler with its CRD informer, and the discovery
 * controller): follows customresourcedefinitions through a shared informer and, for each CRD whose
 * names are accepted or that is established, serves its resources in their served versions through
 * the installer; rebuilt whenever the spec or the serving conditions change, and stopped (404) when
 * the CRD is gone. Every server on one etcd runs its own, so each serves every CRD.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import type { SharedInformers } from '../../controllers/shared-informers.js';
import type { ApiInstaller } from '../../endpoints/installer.js';
import { crdAsV1 } from '../../registry/apiextensions/customresourcedefinitions/conversion.js';
import type { RestStorage } from '../../registry/interface.js';
import { internalContext } from '../../request/context.js';
import { buildCrdServing, type BuildDeps, type CrdLiveState } from './build.js';
import { crdFacts, isServable, type CrdFacts } from './crd.js';

/** What the controller needs. */
export interface CrdServingDeps extends BuildDeps {
  readonly installer: ApiInstaller;
  readonly informers: SharedInformers;
}

interface Served {
  readonly group: string;
  readonly plural: string;
  readonly signature: string;
  readonly live: CrdLiveState;
  facts: CrdFacts;
  defaulters?: ReadonlyMap<string, (obj: KubeObject) => void>;
}

/** What decides a rebuild: everything but status, plus the names and conditions that decide serving. */
function signatureOf(crd: KubeObject, f: CrdFacts): string {
  return JSON.stringify([f.uid, crd.spec, f.names, isServable(f), f.conditions.get('Established') === 'True']);
}

/** Serves custom resources live. */
export class CrdServingController {
  private readonly served = new Map<string, Served>();
  private readonly defaulters = new Map<string, (obj: KubeObject) => void>();
  private syncedFlag = false;
  private stopped = false;

  constructor(private readonly deps: CrdServingDeps) {}

  /** Starts following CRDs; synced() turns true once every existing CRD is served. */
  start(): Promise<void> {
    // --runtime-config=apiextensions.k8s.io/v1=false: there are no CRDs to serve.
    if (!this.deps.storageOf('apiextensions.k8s.io', 'customresourcedefinitions')) {
      this.syncedFlag = true;
      return Promise.resolve();
    }
    const informer = this.deps.informers.get('apiextensions.k8s.io', 'customresourcedefinitions');
    informer.addHandlers({
      added: (obj) => this.sync(obj),
      updated: (obj) => this.sync(obj),
      deleted: (obj) => {
        if (this.stopped) return;
        const entry = this.served.get(obj.metadata.name ?? '');
        this.remove(obj.metadata.name ?? '');
        // The CRD is gone (its instances with it): its watch cache goes too.
        if (entry) this.deps.storage.releaseResource?.({ group: entry.group, resource: entry.plural }, `/${entry.group}/${entry.plural}`);
      },
    });
    return informer.synced.then(() => {
      this.syncedFlag = true;
    });
  }

  /** kube's crd-informer-synced readyz check. */
  synced(): boolean {
    return this.syncedFlag;
  }

  /**
   * Defaulting of a custom resource read from etcd, by its stored apiVersion and kind (kube
   * defaults on decode); objects of other kinds pass unchanged. Mutates obj.
   */
  defaultStored(obj: KubeObject): void {
    if (this.defaulters.size === 0 || typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string') return;
    this.defaulters.get(`${obj.apiVersion}/${obj.kind}`)?.(obj);
  }

  private sync(stored: KubeObject): void {
    if (this.stopped) return;
    const crd = crdAsV1(stored);
    const name = crd.metadata.name ?? '';
    const f = crdFacts(crd);
    const existing = this.served.get(name);
    const signature = signatureOf(crd, f);
    if (existing && existing.signature === signature) {
      existing.facts = f;
      existing.live.terminating = f.terminating;
      return;
    }
    if (existing) this.remove(name);
    if (!isServable(f) || !f.group || !f.names.plural) return;
    const entry: Served = {
      group: f.group,
      plural: f.names.plural,
      signature,
      facts: f,
      live: {
        terminating: f.terminating,
        recordStoredVersion: (version) => this.recordStoredVersion(name, version),
      },
    };
    try {
      const serving = buildCrdServing(crd, f, entry.live, this.deps);
      entry.defaulters = serving.storedDefaulters;
      for (const [key, apply] of serving.storedDefaulters) this.defaulters.set(key, apply);
      this.served.set(name, entry);
      this.deps.installer.setDynamicResource(f.group, f.names.plural, serving.versions);
    } catch (err) {
      this.deps.log.error(`serving custom resource definition ${name} failed: ${(err as Error).message}`);
    }
  }

  private remove(name: string): void {
    const entry = this.served.get(name);
    if (!entry) return;
    this.served.delete(name);
    for (const [key, apply] of entry.defaulters ?? []) if (this.defaulters.get(key) === apply) this.defaulters.delete(key);
    this.deps.installer.setDynamicResource(entry.group, entry.plural, []);
  }

  /** Adds version to the CRD's status.storedVersions when the latest CRD seen lacks it (kube's storage version tracking). */
  private async recordStoredVersion(name: string, version: string): Promise<void> {
    const entry = this.served.get(name);
    if (!entry || entry.facts.storedVersions.includes(version)) return;
    const status = this.deps.storageOf('apiextensions.k8s.io', 'customresourcedefinitions', 'status') as RestStorage | undefined;
    if (!status?.update) return;
    const ctx = internalContext({ verb: 'update', group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions', subresource: 'status', name });
    await status.update(ctx, name, {
      updatedObject: async (_c, old) => {
        if (!old) throw new Error(`customresourcedefinition ${name} is gone`);
        const next = structuredClone(old);
        const st = (next.status ?? (next.status = {})) as { storedVersions?: string[] };
        const versions = Array.isArray(st.storedVersions) ? st.storedVersions : [];
        if (!versions.includes(version)) st.storedVersions = [...versions, version];
        return next;
      },
    }, { dryRun: false });
    entry.facts = { ...entry.facts, storedVersions: [...entry.facts.storedVersions, version] };
  }

  /** Stops following CRDs (what is served stays until the server stops; the informer stops with the shared informers). */
  stop(): void {
    this.stopped = true;
  }
}

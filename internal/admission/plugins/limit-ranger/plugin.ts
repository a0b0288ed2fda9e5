/**
 * LimitRanger (kube's admission plugin of that name): on pod creation, defaults container and init
 * container resources from the namespace's LimitRanges (admit), then refuses, 403, a pod or a
 * PersistentVolumeClaim (create or update) outside their min, max and maxLimitRequestRatio
 * (validate). LimitRanges come from the shared informer; a namespace the informer shows none for
 * is listed from storage, the answer kept 30 s (kube's live lookup for a lagging cache).
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { RequestContext } from '../../../request/context.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin } from '../../interface.js';
import { admissionForbidden, aggregateMessage } from '../pod-shared/forbidden.js';
import { waitForReady, type NamespaceIndex } from '../pod-shared/lookup.js';
import type { Pod } from '../pod-shared/pod-types.js';
import { podMutateLimit, podValidateLimit, pvcValidateLimit } from './limit-funcs.js';

/** Lists a namespace's LimitRanges from storage. */
export type LimitRangeLister = (namespace: string) => Promise<KubeObject[]>;

const liveTTLMs = 30_000;
const maxLiveEntries = 10_000;

/** The LimitRanger plugin. */
export class LimitRanger implements AdmissionPlugin {
  readonly name = 'LimitRanger';
  private readonly live = new Map<string, { expiry: number; items: KubeObject[] }>();
  private readonly inFlight = new Map<string, Promise<KubeObject[]>>();

  constructor(
    private readonly index: NamespaceIndex,
    private readonly listLive: LimitRangeLister,
    private readonly now: () => number = Date.now,
  ) {}

  handles(operation: AdmissionOperation): boolean {
    return operation === 'CREATE' || operation === 'UPDATE';
  }

  async admit(attrs: AdmissionAttributes, _ctx: RequestContext): Promise<void> {
    if (attrs.kind !== 'Pod' || attrs.operation !== 'CREATE' || attrs.subresource !== '' || !attrs.object) return;
    for (const lr of await this.limitRanges(attrs)) podMutateLimit(lr, attrs.object as Pod);
  }

  async validate(attrs: AdmissionAttributes, _ctx: RequestContext): Promise<void> {
    if (attrs.subresource !== '' || !attrs.object) return;
    const isPod = attrs.kind === 'Pod';
    if (!(isPod && attrs.operation === 'CREATE') && attrs.kind !== 'PersistentVolumeClaim') return;
    if (attrs.oldObject?.metadata.deletionTimestamp) return;
    for (const lr of await this.limitRanges(attrs)) {
      const errs = isPod ? podValidateLimit(lr, attrs.object as Pod) : attrs.resource === 'persistentvolumeclaims' ? pvcValidateLimit(lr, attrs.object) : [];
      if (errs.length > 0) throw admissionForbidden(attrs, aggregateMessage(errs));
    }
  }

  private async limitRanges(attrs: AdmissionAttributes): Promise<KubeObject[]> {
    if (!(await waitForReady(this.index.informer))) {
      throw admissionForbidden(attrs, `unable to ${attrs.operation} ${attrs.group}/${attrs.version}, Resource=${attrs.resource} at this time because there was an error enforcing limit ranges`);
    }
    const items = this.index.list(attrs.namespace);
    if (items.length > 0) return items;
    const ns = attrs.namespace;
    const entry = this.live.get(ns);
    if (entry && entry.expiry >= this.now()) return entry.items;
    // One storage list per namespace at a time (kube's singleflight).
    let pending = this.inFlight.get(ns);
    if (!pending) {
      pending = this.listLive(ns).finally(() => this.inFlight.delete(ns));
      this.inFlight.set(ns, pending);
    }
    let listed: KubeObject[];
    try {
      listed = await pending;
    } catch (err) {
      throw admissionForbidden(attrs, (err as Error).message);
    }
    if (this.live.size >= maxLiveEntries) this.live.delete(this.live.keys().next().value as string);
    this.live.set(ns, { expiry: this.now() + liveTTLMs, items: listed });
    return listed;
  }
}

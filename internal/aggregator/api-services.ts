/**
 * The APIServices this server knows, kept from the shared informer of apiregistration.k8s.io
 * apiservices: read by the proxy, discovery and the OpenAPI and availability controllers without
 * asking storage per request. Listeners are told after each change.
 */
import type { KubeObject } from '../../api/meta/types.js';
import type { Informer } from '../controllers/informer.js';
import type { APIServiceView } from './interface.js';

/** Whether obj's status has condition type with status True. */
export function conditionTrue(obj: KubeObject, type: string): boolean {
  const conditions = (obj.status as { conditions?: Array<{ type?: string; status?: string }> } | undefined)?.conditions ?? [];
  return conditions.some((c) => c.type === type && c.status === 'True');
}

/** Reads an APIService object. */
export function viewOf(obj: KubeObject): APIServiceView {
  const spec = (obj.spec ?? {}) as Record<string, unknown>;
  const service = spec.service as { namespace?: string; name?: string; port?: number } | undefined | null;
  const caBundle = typeof spec.caBundle === 'string' && spec.caBundle !== '' ? Buffer.from(spec.caBundle, 'base64').toString('utf8') : undefined;
  return {
    name: obj.metadata.name ?? '',
    group: String(spec.group ?? ''),
    version: String(spec.version ?? ''),
    groupPriorityMinimum: Number(spec.groupPriorityMinimum ?? 0),
    versionPriority: Number(spec.versionPriority ?? 0),
    ...(service ? { service: { namespace: service.namespace ?? '', name: service.name ?? '', port: service.port ?? 443 } } : {}),
    ...(caBundle ? { caBundle } : {}),
    insecureSkipTLSVerify: spec.insecureSkipTLSVerify === true,
    available: conditionTrue(obj, 'Available'),
    object: obj,
  };
}

/** The APIServices by name and by group version. */
export class APIServiceIndex {
  private readonly byName = new Map<string, APIServiceView>();
  private readonly listeners: Array<(name: string) => void> = [];

  constructor(informer: Informer) {
    informer.addHandlers({
      added: (obj) => this.set(obj),
      updated: (obj) => this.set(obj),
      deleted: (obj) => {
        const name = obj.metadata.name ?? '';
        this.byName.delete(name);
        this.changed(name);
      },
    });
  }

  private set(obj: KubeObject): void {
    const view = viewOf(obj);
    this.byName.set(view.name, view);
    this.changed(view.name);
  }

  private changed(name: string): void {
    for (const l of this.listeners) l(name);
  }

  /** Calls listener with the APIService's name after it is added, changed or deleted. Must not throw. */
  onChange(listener: (name: string) => void): void {
    this.listeners.push(listener);
  }

  /** The APIService of that name. */
  get(name: string): APIServiceView | undefined {
    return this.byName.get(name);
  }

  /** The APIService of group/version. */
  forGroupVersion(group: string, version: string): APIServiceView | undefined {
    return this.byName.get(`${version}.${group}`);
  }

  /** Every APIService. */
  all(): APIServiceView[] {
    return [...this.byName.values()];
  }

  /** The service-backed APIServices. */
  remote(): APIServiceView[] {
    return this.all().filter((a) => a.service !== undefined);
  }
}

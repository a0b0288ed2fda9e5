/**
 * kube's crdRegistrationController: a local APIService (automanaged=true, groupPriorityMinimum
 * 1000, versionPriority 100) for every group version some CRD serves, removed once none does.
 * CRDs are read from the shared informer (stored as v1beta1, so both shapes of the version list
 * are read).
 */
import type { KubeObject } from '../../api/meta/types.js';
import type { Informer } from '../controllers/informer.js';
import type { AutoRegister } from './autoregister.js';
import { crdPriority } from './priorities.js';

/** The versions a CRD serves. */
export function servedVersions(crd: KubeObject): string[] {
  const spec = (crd.spec ?? {}) as { version?: string; versions?: Array<{ name?: string; served?: boolean }> };
  if (Array.isArray(spec.versions) && spec.versions.length > 0) return spec.versions.filter((v) => v.served === true && v.name).map((v) => v.name as string);
  return spec.version ? [spec.version] : [];
}

function groupOf(crd: KubeObject): string {
  return String((crd.spec as { group?: string } | undefined)?.group ?? '');
}

/** Keeps the CRD group versions' APIServices wanted in autoregister. */
export class CRDRegistration {
  /** Group versions currently wanted, "group/version". */
  private readonly wanted = new Set<string>();

  constructor(
    private readonly crds: Informer,
    private readonly register: AutoRegister,
  ) {}

  /** Follows the CRDs; resolves once the first list has been applied. */
  async start(): Promise<void> {
    const touched = (obj: KubeObject, old?: KubeObject): void => {
      const gvs = new Set<string>();
      for (const o of old ? [obj, old] : [obj]) for (const v of servedVersions(o)) gvs.add(`${groupOf(o)}/${v}`);
      for (const gv of gvs) this.reconcile(gv);
    };
    this.crds.addHandlers({
      added: (obj) => touched(obj),
      updated: (obj, old) => touched(obj, old),
      deleted: (obj) => touched(obj),
    });
    await this.crds.synced;
  }

  /** Wants or unwants group/version by whether any CRD still serves it. */
  private reconcile(gv: string): void {
    const slash = gv.indexOf('/');
    const group = gv.slice(0, slash);
    const version = gv.slice(slash + 1);
    let served = false;
    for (const crd of this.crds.list()) {
      // A CRD being deleted still serves until it is gone (kube checks the lister only).
      if (groupOf(crd) === group && servedVersions(crd).includes(version)) {
        served = true;
        break;
      }
    }
    if (served) {
      this.wanted.add(gv);
      this.register.want(group, version, crdPriority, 'true');
    } else if (this.wanted.delete(gv) || !served) {
      this.register.unwant(group, version);
    }
  }
}

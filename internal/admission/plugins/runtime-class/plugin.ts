/**
 * RuntimeClass (kube's admission plugin of that name), on pod creation: a pod naming a
 * RuntimeClass gets the class's overhead.podFixed as spec.overhead (refused, 403, when it already
 * carries a different overhead) and the class's scheduling: its nodeSelector merged into the pod's
 * (403 on a key the pod sets to another value) and its tolerations merged into the pod's. A pod
 * with an overhead but no class defining one is refused. A class missing from the shared informer
 * is read from storage before the pod is refused for naming one that does not exist.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { Informer } from '../../../controllers/informer.js';
import type { RequestContext } from '../../../request/context.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin } from '../../interface.js';
import { admissionForbidden } from '../pod-shared/forbidden.js';
import { cached, waitForReady, type LiveGet } from '../pod-shared/lookup.js';
import { isPodRequest, podSpec, type Pod, type ResourceList, type Toleration } from '../pod-shared/pod-types.js';
import { mergeTolerations } from '../pod-shared/tolerations.js';
import { quantities } from '../limit-ranger/constraints.js';

interface RuntimeClass extends KubeObject {
  overhead?: { podFixed?: ResourceList };
  scheduling?: { nodeSelector?: Record<string, string>; tolerations?: Toleration[] };
}

/** Semantic equality of two resource lists: the same names, equal quantities. */
export function resourceListsEqual(a: ResourceList, b: ResourceList): boolean {
  const qa = quantities(a);
  const qb = quantities(b);
  if (qa.size !== qb.size || Object.keys(a).length !== Object.keys(b).length) return false;
  for (const [k, q] of qa) {
    const other = qb.get(k);
    if (!other || other.cmp(q) !== 0) return false;
  }
  return true;
}

const overheadMismatch = "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead";

/** The RuntimeClass plugin. */
export class RuntimeClassAdmission implements AdmissionPlugin {
  readonly name = 'RuntimeClass';

  constructor(
    private readonly classes: Informer,
    private readonly liveGet: LiveGet,
  ) {}

  handles(operation: AdmissionOperation): boolean {
    return operation === 'CREATE';
  }

  async admit(attrs: AdmissionAttributes, _ctx: RequestContext): Promise<void> {
    if (!isPodRequest(attrs.group, attrs.resource, attrs.subresource) || !attrs.object) return;
    const spec = podSpec(attrs.object as Pod);
    const rc = await this.runtimeClass(attrs, spec.runtimeClassName);
    if (!rc) return;
    const podFixed = rc.overhead?.podFixed;
    if (podFixed) {
      if (spec.overhead && Object.keys(spec.overhead).length > 0 && !resourceListsEqual(podFixed, spec.overhead)) throw admissionForbidden(attrs, overheadMismatch);
      spec.overhead = { ...podFixed };
    }
    const scheduling = rc.scheduling;
    if (!scheduling) return;
    const runtimeSelector = scheduling.nodeSelector ?? {};
    if (!spec.nodeSelector) {
      if (scheduling.nodeSelector) spec.nodeSelector = { ...runtimeSelector };
    } else {
      for (const [k, v] of Object.entries(runtimeSelector)) {
        const podValue = spec.nodeSelector[k];
        if (podValue !== undefined && podValue !== v) {
          throw admissionForbidden(attrs, `conflict: runtimeClass.scheduling.nodeSelector[${k}] = ${v}; pod.spec.nodeSelector[${k}] = ${podValue}`);
        }
        spec.nodeSelector[k] = v;
      }
    }
    const merged = mergeTolerations(spec.tolerations ?? [], scheduling.tolerations ?? []);
    if (merged.length > 0) spec.tolerations = merged;
    else delete spec.tolerations;
  }

  async validate(attrs: AdmissionAttributes, _ctx: RequestContext): Promise<void> {
    if (!isPodRequest(attrs.group, attrs.resource, attrs.subresource) || !attrs.object) return;
    const spec = (attrs.object as Pod).spec ?? {};
    const rc = await this.runtimeClass(attrs, spec.runtimeClassName);
    if (!spec.overhead || Object.keys(spec.overhead).length === 0) return;
    const podFixed = rc?.overhead?.podFixed;
    if (!podFixed) throw admissionForbidden(attrs, 'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead');
    if (!resourceListsEqual(podFixed, spec.overhead)) throw admissionForbidden(attrs, overheadMismatch);
  }

  private async runtimeClass(attrs: AdmissionAttributes, name: string | undefined | null): Promise<RuntimeClass | undefined> {
    if (name === undefined || name === null) return undefined;
    await waitForReady(this.classes);
    const hit = cached(this.classes, '', name) ?? (await this.liveGet('', name));
    if (!hit) throw admissionForbidden(attrs, `pod rejected: RuntimeClass ${JSON.stringify(name)} not found`);
    return hit as RuntimeClass;
  }
}

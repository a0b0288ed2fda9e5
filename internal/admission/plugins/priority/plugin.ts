/**
 * Priority (kube's admission plugin of that name). On pod creation it resolves
 * spec.priorityClassName to spec.priority and spec.preemptionPolicy from the PriorityClass (the
 * globalDefault class, or priority 0, when the pod names none), refusing (403) a class that does
 * not exist and a priority or preemptionPolicy in the spec that differs from the class's; on pod
 * update it keeps the stored priority and policy when the new object drops them. It refuses a second
 * globalDefault PriorityClass. PriorityClasses come from the shared informer.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { Informer } from '../../../controllers/informer.js';
import type { RequestContext } from '../../../request/context.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin } from '../../interface.js';
import { admissionForbidden } from '../pod-shared/forbidden.js';
import { waitForReady } from '../pod-shared/lookup.js';
import { isPodRequest, podSpec, type Pod } from '../pod-shared/pod-types.js';

/** kube's DefaultPriorityWhenNoDefaultClassExists. */
export const defaultPriorityWhenNoDefaultClassExists = 0;

interface PriorityClass extends KubeObject {
  value?: number;
  globalDefault?: boolean;
  preemptionPolicy?: string;
}

/** The Priority plugin. */
export class Priority implements AdmissionPlugin {
  readonly name = 'Priority';

  constructor(private readonly classes: Informer) {}

  handles(operation: AdmissionOperation): boolean {
    return operation === 'CREATE' || operation === 'UPDATE' || operation === 'DELETE';
  }

  async admit(attrs: AdmissionAttributes, _ctx: RequestContext): Promise<void> {
    if (!isPodRequest(attrs.group, attrs.resource, attrs.subresource) || !attrs.object) return;
    const pod = attrs.object as Pod;
    const spec = podSpec(pod);
    if (attrs.operation === 'UPDATE') {
      // Validation forbids changing these; an update that leaves them out keeps what admission set.
      const old = (attrs.oldObject as Pod | undefined)?.spec;
      if (spec.priority === undefined && old?.priority !== undefined) spec.priority = old.priority;
      if (spec.preemptionPolicy === undefined && old?.preemptionPolicy !== undefined) spec.preemptionPolicy = old.preemptionPolicy;
      return;
    }
    if (attrs.operation !== 'CREATE') return;
    await waitForReady(this.classes);
    let priority: number;
    let preemptionPolicy: string | undefined;
    if (!spec.priorityClassName) {
      const dpc = this.defaultClass();
      priority = dpc?.value ?? defaultPriorityWhenNoDefaultClassExists;
      preemptionPolicy = dpc?.preemptionPolicy;
      if (dpc) spec.priorityClassName = dpc.metadata.name ?? '';
    } else {
      const pc = this.classes.get(spec.priorityClassName) as PriorityClass | undefined;
      if (!pc) throw admissionForbidden(attrs, `no PriorityClass with name ${spec.priorityClassName} was found`);
      priority = pc.value ?? 0;
      preemptionPolicy = pc.preemptionPolicy;
    }
    if (spec.priority !== undefined && spec.priority !== null && spec.priority !== priority) {
      throw admissionForbidden(
        attrs,
        `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${priority} from the given PriorityClass name`,
      );
    }
    spec.priority = priority;
    if (preemptionPolicy !== undefined) {
      if (spec.preemptionPolicy !== undefined && spec.preemptionPolicy !== preemptionPolicy) {
        throw admissionForbidden(
          attrs,
          `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${preemptionPolicy} from the given PriorityClass name`,
        );
      }
      spec.preemptionPolicy = preemptionPolicy;
    }
  }

  async validate(attrs: AdmissionAttributes, _ctx: RequestContext): Promise<void> {
    if (attrs.resource !== 'priorityclasses' || attrs.group !== 'scheduling.k8s.io' || attrs.subresource !== '') return;
    if (attrs.operation !== 'CREATE' && attrs.operation !== 'UPDATE') return;
    const pc = attrs.object as PriorityClass | undefined;
    if (!pc?.globalDefault) return;
    await waitForReady(this.classes);
    const dpc = this.defaultClass();
    if (dpc && (attrs.operation === 'CREATE' || dpc.metadata.name !== pc.metadata.name)) {
      throw admissionForbidden(attrs, `PriorityClass ${dpc.metadata.name ?? ''} is already marked as default. Only one default can exist`);
    }
  }

  /** The globalDefault class; of several (a race), the one with the lowest value. */
  private defaultClass(): PriorityClass | undefined {
    let found: PriorityClass | undefined;
    for (const o of this.classes.list()) {
      const pc = o as PriorityClass;
      if (pc.globalDefault && (!found || (found.value ?? 0) > (pc.value ?? 0))) found = pc;
    }
    return found;
  }
}

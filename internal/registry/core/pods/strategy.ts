/**
 * Pod rules (kube's pkg/registry/core/pod): status starts Pending with the computed QoS class,
 * spec is mostly immutable after create, status is written only through pods/status, and
 * deletion is graceful for pods bound to a node.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { childPath, forbidden, invalid, type FieldError } from '../../../validation/field-error.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../../../validation/label-values.js';
import type { DeleteOptions } from '../../interface.js';
import type { StatusStrategy, Strategy } from '../../generic/strategy.js';
import { validateImmutableField } from '../shared/field-immutable.js';
import { arrayAt, asObject, boolText, numberAt, objectAt, stringAt, type JsonObject } from '../shared/json-value.js';
import { validatePodSpec } from '../shared/pod-spec.js';
import { validatePodSpecUpdate } from '../shared/pod-update.js';
import { computePodQOS } from '../shared/qos.js';
import { keepStatusOf, takeAllButStatusFrom } from '../shared/status-write.js';

/** The grace period kube's defaulting gives spec.terminationGracePeriodSeconds. */
export const defaultTerminationGracePeriodSeconds = 30;

/** The pod's fields for field selectors, as kube's ToSelectableFields gives them. */
export function podSelectableFields(obj: KubeObject): Record<string, string> {
  const spec = asObject(obj.spec);
  const status = asObject(obj.status);
  const podIPs = arrayAt(status, 'podIPs');
  const firstIP = podIPs.length > 0 ? stringAt(asObject(podIPs[0]), 'ip') : stringAt(status, 'podIP');
  return {
    'spec.nodeName': stringAt(spec, 'nodeName'),
    'spec.restartPolicy': stringAt(spec, 'restartPolicy'),
    'spec.schedulerName': stringAt(spec, 'schedulerName'),
    'spec.serviceAccountName': stringAt(spec, 'serviceAccountName'),
    'spec.hostNetwork': boolText(spec, 'hostNetwork'),
    'status.phase': stringAt(status, 'phase'),
    'status.podIP': firstIP,
    'status.nominatedNodeName': stringAt(status, 'nominatedNodeName'),
  };
}

/** The status a new pod starts with: Pending, its QoS class, and SchedulingGated when gated. */
export function initialPodStatus(spec: JsonObject | undefined): JsonObject {
  const status: JsonObject = { phase: 'Pending', qosClass: computePodQOS(spec) };
  if (arrayAt(spec, 'schedulingGates').length > 0) {
    status.conditions = [
      { type: 'PodScheduled', status: 'False', reason: 'SchedulingGated', message: 'Scheduling is blocked due to non-empty scheduling gates' },
    ];
  }
  return status;
}

/** kube's CheckGracefulDelete: the grace period to apply when deleting obj. */
export function podGracePeriod(obj: KubeObject, options: DeleteOptions): number {
  const spec = asObject(obj.spec);
  let period = options.gracePeriodSeconds ?? numberAt(spec, 'terminationGracePeriodSeconds') ?? defaultTerminationGracePeriodSeconds;
  // A pod no kubelet runs, or one that already finished, has nothing to wait for.
  if (!stringAt(spec, 'nodeName')) period = 0;
  const phase = stringAt(asObject(obj.status), 'phase');
  if (phase === 'Failed' || phase === 'Succeeded') period = 0;
  return period < 0 ? 1 : period;
}

function validatePodCreate(obj: KubeObject): FieldError[] {
  const spec = asObject(obj.spec);
  const errs = validatePodSpec(spec, 'spec', { isPod: true });
  if (arrayAt(spec, 'ephemeralContainers').length > 0) errs.push(forbidden('spec.ephemeralContainers', 'cannot be set on create'));
  if (stringAt(spec, 'nodeName') && arrayAt(spec, 'schedulingGates').length > 0) {
    errs.push(forbidden('spec.nodeName', 'cannot be set until all schedulingGates have been cleared'));
  }
  return errs;
}

/** The Pod strategy. */
export const podStrategy = {
  namespaced: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  tracksGeneration: true,
  hasStatus: true,
  nameValidation: 'subdomain',
  returnDeletedObject: true,
  selectableFields: {
    extra: [
      'spec.nodeName',
      'spec.restartPolicy',
      'spec.schedulerName',
      'spec.serviceAccountName',
      'spec.hostNetwork',
      'status.phase',
      'status.podIP',
      'status.podIPs',
      'status.nominatedNodeName',
    ],
    style: 'core',
    // Old v1 clients still send spec.host.
    aliases: { 'spec.host': 'spec.nodeName' },
    values: podSelectableFields,
  },
  prepareForCreate(_ctx, obj) {
    obj.status = initialPodStatus(asObject(obj.spec));
  },
  validate(_ctx, obj) {
    return validatePodCreate(obj);
  },
  warningsOnCreate(_ctx, obj) {
    const msgs = isDNS1123Label(obj.metadata.name ?? '');
    if (msgs.length === 0) return [];
    return [`metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: [${msgs.join(' ')}]`];
  },
  prepareForUpdate(_ctx, obj, old) {
    keepStatusOf(obj, old);
  },
  validateUpdate(_ctx, obj, old) {
    const spec = asObject(obj.spec) ?? {};
    return [...validatePodSpec(spec, 'spec', { isPod: true }), ...validatePodSpecUpdate(spec, asObject(old.spec) ?? {})];
  },
  gracePeriod: podGracePeriod,
} satisfies Strategy;

/**
 * pods/status (kube's podStatusStrategy): spec and ownerReferences stay as stored, the QoS class
 * is back-filled when a kubelet drops it and may not change; labels and annotations may change.
 */
export const podStatusStrategy: StatusStrategy = {
  prepareForUpdate(_ctx, obj, old) {
    takeAllButStatusFrom(obj, old);
    if (old.metadata.ownerReferences === undefined) delete obj.metadata.ownerReferences;
    else obj.metadata.ownerReferences = structuredClone(old.metadata.ownerReferences);
    const status = asObject(obj.status);
    const oldQOS = objectAt(old as JsonObject, 'status')?.qosClass;
    if (status && !status.qosClass && oldQOS !== undefined) status.qosClass = oldQOS;
    else if (!status && oldQOS !== undefined) obj.status = { qosClass: oldQOS };
  },
  validateUpdate(_ctx, obj, old) {
    const status = asObject(obj.status);
    const errs = validateImmutableField(status?.qosClass, objectAt(old as JsonObject, 'status')?.qosClass, 'status.qosClass');
    const nominated = stringAt(status, 'nominatedNodeName');
    if (nominated && nominated !== stringAt(objectAt(old as JsonObject, 'status'), 'nominatedNodeName')) {
      for (const m of isDNS1123Subdomain(nominated)) errs.push(invalid(childPath('status', 'nominatedNodeName'), nominated, m));
    }
    return errs;
  },
};

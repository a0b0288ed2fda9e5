import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { fieldErrorCause, fieldErrorMessage } from '../field-error.js';
import type { GVK } from './types.js';
import { validateSchema } from './validate.js';

const pod: GVK = { group: '', version: 'v1', kind: 'Pod' };
const deployment: GVK = { group: 'apps', version: 'v1', kind: 'Deployment' };
const service: GVK = { group: '', version: 'v1', kind: 'Service' };
const configMap: GVK = { group: '', version: 'v1', kind: 'ConfigMap' };
const secret: GVK = { group: '', version: 'v1', kind: 'Secret' };
const job: GVK = { group: 'batch', version: 'v1', kind: 'Job' };
const role: GVK = { group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'Role' };
const hpaV2: GVK = { group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler' };
const hpaV1: GVK = { group: 'autoscaling', version: 'v1', kind: 'HorizontalPodAutoscaler' };
const coreEvent: GVK = { group: '', version: 'v1', kind: 'Event' };
const event: GVK = { group: 'events.k8s.io', version: 'v1', kind: 'Event' };
const node: GVK = { group: '', version: 'v1', kind: 'Node' };
const crd: GVK = { group: 'apiextensions.k8s.io', version: 'v1', kind: 'CustomResourceDefinition' };
const networkPolicy: GVK = { group: 'networking.k8s.io', version: 'v1', kind: 'NetworkPolicy' };
const endpointSlice: GVK = { group: 'discovery.k8s.io', version: 'v1', kind: 'EndpointSlice' };

function messages(gvk: GVK, obj: Record<string, unknown>): string[] {
  return validateSchema(gvk, obj).map(fieldErrorMessage);
}

function podSpec(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { containers: [{ name: 'c', image: 'i' }], ...extra };
}

interface ValidateCase {
  readonly name: string;
  readonly gvk: GVK;
  readonly obj: Record<string, unknown>;
  readonly want: string[];
}

const cases: ValidateCase[] = [
  // Required: lists, maps and nil-pointer structs that kube rejects when missing.
  { name: 'Pod without containers', gvk: pod, obj: { spec: {} }, want: ['spec.containers: Required value'] },
  { name: 'Pod with containers: null', gvk: pod, obj: { spec: { containers: null } }, want: ['spec.containers: Required value'] },
  { name: 'Pod with an empty containers list (handwritten validation decides)', gvk: pod, obj: { spec: { containers: [] } }, want: [] },
  { name: 'Pod affinity without nodeSelectorTerms', gvk: pod, obj: { spec: podSpec({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: {} } } }) }, want: ['spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value'] },
  { name: 'Deployment without selector', gvk: deployment, obj: { spec: { template: { spec: podSpec() } } }, want: ['spec.selector: Required value'] },
  { name: 'Deployment without template: an embedded struct, zero-filled in Go', gvk: deployment, obj: { spec: { selector: {} } }, want: [] },
  { name: 'Deployment template without containers', gvk: deployment, obj: { spec: { selector: {}, template: { spec: {} } } }, want: ['spec.template.spec.containers: Required value'] },
  { name: 'Job: missing template is left to handwritten validation', gvk: job, obj: { spec: {} }, want: [] },
  { name: 'Role rule without verbs', gvk: role, obj: { rules: [{ apiGroups: [''], resources: ['pods'] }] }, want: ['rules[0].verbs: Required value'] },
  { name: 'Role without rules (optional in kube)', gvk: role, obj: { metadata: { name: 'r' } }, want: [] },
  { name: 'Container without name: a string, left to handwritten validation', gvk: pod, obj: { spec: { containers: [{ image: 'i' }] } }, want: [] },
  { name: 'HPA v2 without scaleTargetRef and maxReplicas: struct and int32, zero-filled', gvk: hpaV2, obj: { spec: {} }, want: [] },
  { name: 'HPA v1 without scaleTargetRef', gvk: hpaV1, obj: { spec: { maxReplicas: 1 } }, want: [] },
  { name: 'core Event without involvedObject (struct)', gvk: coreEvent, obj: { metadata: { name: 'e' } }, want: [] },
  { name: 'events.k8s.io Event without eventTime (MicroTime)', gvk: event, obj: { metadata: { name: 'e' } }, want: [] },
  { name: 'ConfigMap and Secret have no required fields', gvk: configMap, obj: {}, want: [] },
  { name: 'Secret with anything', gvk: secret, obj: { type: 'Opaque' }, want: [] },
  { name: 'NetworkPolicy without podSelector (kube accepts it)', gvk: networkPolicy, obj: { spec: {} }, want: [] },
  { name: 'EndpointSlice without endpoints (kube accepts it)', gvk: endpointSlice, obj: { addressType: 'IPv4' }, want: [] },
  { name: 'EndpointSlice endpoint without addresses', gvk: endpointSlice, obj: { addressType: 'IPv4', endpoints: [{}] }, want: ['endpoints[0].addresses: Required value'] },
  { name: 'CRD without versions', gvk: crd, obj: { spec: { group: 'g', names: { plural: 'p', kind: 'K' }, scope: 'Namespaced' } }, want: ['spec.versions: Required value'] },
  { name: 'status is skipped (Node)', gvk: node, obj: { status: { conditions: [{ type: 'Ready' }, { type: 'Ready' }] } }, want: [] },

  // list-type map: the first repeat of each key tuple, rendered as kube's unstructured %#v.
  { name: 'Pod with two containers of one name', gvk: pod, obj: { spec: { containers: [{ name: 'a' }, { name: 'a' }, { name: 'a' }] } }, want: ['spec.containers[1]: Duplicate value: map[string]interface {}{"name":"a"}'] },
  { name: 'Pod containers without names repeat the unspecified key', gvk: pod, obj: { spec: { containers: [{ image: 'x' }, { image: 'y' }] } }, want: ['spec.containers[1]: Duplicate value: map[string]interface {}{}'] },
  { name: 'Pod volume mounts on one path', gvk: pod, obj: { spec: { containers: [{ name: 'c', volumeMounts: [{ name: 'a', mountPath: '/d' }, { name: 'b', mountPath: '/d' }] }] } }, want: ['spec.containers[0].volumeMounts[1]: Duplicate value: map[string]interface {}{"mountPath":"/d"}'] },
  { name: 'Pod volumes and init containers', gvk: pod, obj: { spec: { initContainers: [{ name: 'i' }, { name: 'i' }], containers: [{ name: 'c' }], volumes: [{ name: 'v' }, { name: 'w' }, { name: 'v' }] } }, want: ['spec.initContainers[1]: Duplicate value: map[string]interface {}{"name":"i"}', 'spec.volumes[2]: Duplicate value: map[string]interface {}{"name":"v"}'] },
  { name: 'Pod topology spread constraints: two key fields', gvk: pod, obj: { spec: podSpec({ topologySpreadConstraints: [{ topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', maxSkew: 1 }, { topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', maxSkew: 2 }] }) }, want: ['spec.topologySpreadConstraints[1]: Duplicate value: map[string]interface {}{"topologyKey":"zone", "whenUnsatisfiable":"DoNotSchedule"}'] },
  { name: 'Pod: duplicate env and ports are accepted, as kube only warns', gvk: pod, obj: { spec: { containers: [{ name: 'c', env: [{ name: 'A', value: '1' }, { name: 'A', value: '2' }], ports: [{ containerPort: 80, protocol: 'TCP' }, { containerPort: 80, protocol: 'TCP' }] }], imagePullSecrets: [{ name: 's' }, { name: 's' }] } }, want: [] },
  { name: 'Pod: duplicate finalizers and owner references are accepted', gvk: pod, obj: { metadata: { finalizers: ['a', 'a'], ownerReferences: [{ uid: 'u' }, { uid: 'u' }] }, spec: podSpec() }, want: [] },
  { name: 'Service ports: port and protocol together', gvk: service, obj: { spec: { ports: [{ port: 80, protocol: 'TCP' }, { port: 80, protocol: 'UDP' }, { port: 80, protocol: 'TCP', name: 'b' }] } }, want: ['spec.ports[2]: Duplicate value: map[string]interface {}{"port":80, "protocol":"TCP"}'] },
  { name: 'Service ports: a missing key field is left out of the tuple', gvk: service, obj: { spec: { ports: [{ port: 80 }, { port: 80 }] } }, want: ['spec.ports[1]: Duplicate value: map[string]interface {}{"port":80}'] },
  { name: 'Deployment template containers', gvk: deployment, obj: { spec: { selector: {}, template: { spec: { containers: [{ name: 'web' }, { name: 'web' }] } } } }, want: ['spec.template.spec.containers[1]: Duplicate value: map[string]interface {}{"name":"web"}'] },
  { name: 'list-type map item that is not an object', gvk: pod, obj: { spec: { containers: [{ name: 'a' }, 'b'] } }, want: ['spec.containers[1]: Invalid value: "b": must be an object for an array of list-type map'] },

  // list-type set: the first repeat of each item.
  { name: 'Job exit code values repeat (set of integers)', gvk: job, obj: { spec: { template: { spec: podSpec() }, podFailurePolicy: { rules: [{ action: 'Ignore', onExitCodes: { operator: 'In', values: [1, 2, 1, 1, 2] } }] } } }, want: ['spec.podFailurePolicy.rules[0].onExitCodes.values[2]: Duplicate value: 1', 'spec.podFailurePolicy.rules[0].onExitCodes.values[4]: Duplicate value: 2'] },
  { name: 'Node podCIDRs repeat (set of strings)', gvk: node, obj: { spec: { podCIDRs: ['10.0.0.0/24', '10.0.0.0/24'] } }, want: ['spec.podCIDRs[1]: Duplicate value: "10.0.0.0/24"'] },
  { name: 'HPA v2 has no list-map or set fields to trip on', gvk: hpaV2, obj: { spec: { metrics: [{ type: 'Resource' }, { type: 'Resource' }] } }, want: [] },
  { name: 'CRD validation rules repeat', gvk: crd, obj: { spec: { versions: [{ name: 'v1', schema: { openAPIV3Schema: { 'x-kubernetes-validations': [{ rule: 'self.a > 0' }, { rule: 'self.a > 0', message: 'm' }] } } }] } }, want: ['spec.versions[0].schema.openAPIV3Schema.x-kubernetes-validations[1]: Duplicate value: map[string]interface {}{"rule":"self.a > 0"}'] },
  { name: 'CRD schema through the properties map (map key path)', gvk: crd, obj: { spec: { versions: [{ name: 'v1', schema: { openAPIV3Schema: { properties: { a: { 'x-kubernetes-validations': [{ rule: 'r' }, { rule: 'r' }] } } } } }] } }, want: ['spec.versions[0].schema.openAPIV3Schema.properties[a].x-kubernetes-validations[1]: Duplicate value: map[string]interface {}{"rule":"r"}'] },
];

describe('validateSchema', () => {
  for (const c of cases) {
    test(c.name, () => assert.deepEqual(messages(c.gvk, c.obj), c.want));
  }

  test('a duplicate carries kube\'s StatusCause (reason, field, message)', () => {
    const [err] = validateSchema(pod, { spec: { containers: [{ name: 'a' }, { name: 'a' }] } });
    assert.ok(err);
    assert.deepEqual(fieldErrorCause(err), {
      reason: 'FieldValueDuplicate',
      field: 'spec.containers[1]',
      message: 'Duplicate value: map[string]interface {}{"name":"a"}',
      text: 'spec.containers[1]: Duplicate value: map[string]interface {}{"name":"a"}',
    });
  });

  test('a required error is a FieldValueRequired cause', () => {
    const [err] = validateSchema(deployment, { spec: {} });
    assert.ok(err);
    assert.deepEqual(fieldErrorCause(err), { reason: 'FieldValueRequired', field: 'spec.selector', message: 'Required value', text: 'spec.selector: Required value' });
  });

  test('values of the wrong type are skipped, not reported (checkDecode reports them)', () => {
    assert.deepEqual(messages(pod, { spec: { containers: 'x', volumes: { a: 1 } } }), []);
  });

  test('required errors of a struct come before the errors of its children', () => {
    assert.deepEqual(messages(deployment, { spec: { template: { spec: { containers: [{ name: 'a' }, { name: 'a' }] } } } }), [
      'spec.selector: Required value',
      'spec.template.spec.containers[1]: Duplicate value: map[string]interface {}{"name":"a"}',
    ]);
  });

  test('the input is not mutated, and a kind without a schema yields nothing', () => {
    const obj = { spec: { containers: [{ name: 'a' }, { name: 'a' }] } };
    const before = structuredClone(obj);
    validateSchema(pod, obj);
    assert.deepEqual(obj, before);
    assert.deepEqual(validateSchema({ group: 'example.com', version: 'v1', kind: 'Widget' }, obj), []);
  });
});

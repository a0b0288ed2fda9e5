import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { parseStrictJson } from '../../endpoints/negotiation/strict-json.js';
import { checkDecode } from './decode.js';
import type { GVK } from './types.js';

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
const controllerRevision: GVK = { group: 'apps', version: 'v1', kind: 'ControllerRevision' };

const quantityError = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

interface DecodeCase {
  readonly name: string;
  readonly gvk: GVK;
  readonly obj: Record<string, unknown>;
  readonly decodeError?: string;
  readonly unknownFields?: string[];
}

function container(extra: Record<string, unknown>): Record<string, unknown> {
  return { name: 'c', image: 'nginx', ...extra };
}

function podWith(spec: Record<string, unknown>): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [container({})], ...spec } };
}

function deploymentWith(spec: Record<string, unknown>): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd' },
    spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [container({})] } }, ...spec },
  };
}

const typeErrors: DecodeCase[] = [
  // Type mismatches: the struct owning the field, the JSON path of struct fields, the Go type.
  { name: 'Deployment replicas as a string', gvk: deployment, obj: deploymentWith({ replicas: '3' }), decodeError: 'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32' },
  { name: 'Deployment replicas past int32', gvk: deployment, obj: deploymentWith({ replicas: 3000000000 }), decodeError: 'json: cannot unmarshal number 3000000000 into Go struct field DeploymentSpec.spec.replicas of type int32' },
  { name: 'Deployment replicas not an integer', gvk: deployment, obj: deploymentWith({ replicas: 1.5 }), decodeError: 'json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32' },
  { name: 'Deployment paused as a string', gvk: deployment, obj: deploymentWith({ paused: 'yes' }), decodeError: 'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.paused of type bool' },
  { name: 'Deployment spec as a string', gvk: deployment, obj: { spec: 'x' }, decodeError: 'json: cannot unmarshal string into Go struct field Deployment.spec of type v1.DeploymentSpec' },
  { name: 'Deployment metadata as an array', gvk: deployment, obj: { metadata: [] }, decodeError: 'json: cannot unmarshal array into Go struct field Deployment.metadata of type v1.ObjectMeta' },
  { name: 'Deployment kind as a number', gvk: deployment, obj: { kind: 1 }, decodeError: 'json: cannot unmarshal number into Go struct field Deployment.kind of type string' },
  { name: 'Deployment labels value as a number', gvk: deployment, obj: { metadata: { labels: { a: 1 } } }, decodeError: 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string' },
  { name: 'Deployment maxSurge as a bool (int-or-string)', gvk: deployment, obj: deploymentWith({ strategy: { rollingUpdate: { maxSurge: true } } }), decodeError: 'json: cannot unmarshal bool into Go struct field RollingUpdateDeployment.spec.strategy.rollingUpdate.maxSurge of type int32' },
  { name: 'Deployment maxUnavailable as a fraction (int-or-string)', gvk: deployment, obj: deploymentWith({ strategy: { rollingUpdate: { maxUnavailable: 0.5 } } }), decodeError: 'json: cannot unmarshal number 0.5 into Go struct field RollingUpdateDeployment.spec.strategy.rollingUpdate.maxUnavailable of type int32' },
  { name: 'Deployment maxUnavailable as an object (int-or-string)', gvk: deployment, obj: deploymentWith({ strategy: { rollingUpdate: { maxUnavailable: {} } } }), decodeError: 'json: cannot unmarshal object into Go struct field RollingUpdateDeployment.spec.strategy.rollingUpdate.maxUnavailable of type int32' },
  { name: 'Deployment container image as a number, inside the template', gvk: deployment, obj: deploymentWith({ template: { spec: { containers: [{ name: 'c', image: 5 }] } } }), decodeError: 'json: cannot unmarshal number into Go struct field Container.spec.template.spec.containers.image of type string' },

  { name: 'Pod containers as an object', gvk: pod, obj: { spec: { containers: { name: 'c' } } }, decodeError: 'json: cannot unmarshal object into Go struct field PodSpec.spec.containers of type []v1.Container' },
  { name: 'Pod restartPolicy as a number: a named Go string type', gvk: pod, obj: podWith({ restartPolicy: 1 }), decodeError: 'json: cannot unmarshal number into Go struct field PodSpec.spec.restartPolicy of type v1.RestartPolicy' },
  { name: 'Pod capabilities as a string: a slice of a named type', gvk: pod, obj: podWith({ containers: [container({ securityContext: { capabilities: { add: 'NET_ADMIN' } } })] }), decodeError: 'json: cannot unmarshal string into Go struct field Capabilities.spec.containers.securityContext.capabilities.add of type []v1.Capability' },
  { name: 'Pod hostNetwork as a string', gvk: pod, obj: podWith({ hostNetwork: 'true' }), decodeError: 'json: cannot unmarshal string into Go struct field PodSpec.spec.hostNetwork of type bool' },
  { name: 'Pod activeDeadlineSeconds not an integer (int64)', gvk: pod, obj: podWith({ activeDeadlineSeconds: 2.5 }), decodeError: 'json: cannot unmarshal number 2.5 into Go struct field PodSpec.spec.activeDeadlineSeconds of type int64' },
  { name: 'Pod runAsUser as a string (int64)', gvk: pod, obj: podWith({ containers: [container({ securityContext: { runAsUser: '1000' } })] }), decodeError: 'json: cannot unmarshal string into Go struct field SecurityContext.spec.containers.securityContext.runAsUser of type int64' },
  { name: 'Pod args as a string', gvk: pod, obj: podWith({ containers: [container({ args: 'sleep 1' })] }), decodeError: 'json: cannot unmarshal string into Go struct field Container.spec.containers.args of type []string' },
  { name: 'Pod nodeSelector as an array', gvk: pod, obj: podWith({ nodeSelector: ['a'] }), decodeError: 'json: cannot unmarshal array into Go struct field PodSpec.spec.nodeSelector of type map[string]string' },
  { name: 'Pod limits as a string (a ResourceList)', gvk: pod, obj: podWith({ containers: [container({ resources: { limits: '1' } })] }), decodeError: 'json: cannot unmarshal string into Go struct field ResourceRequirements.spec.containers.resources.limits of type v1.ResourceList' },
  { name: 'Pod cpu limit not a quantity', gvk: pod, obj: podWith({ containers: [container({ resources: { limits: { cpu: 'lots' } } })] }), decodeError: quantityError },
  { name: 'Pod memory request with a bad suffix', gvk: pod, obj: podWith({ containers: [container({ resources: { requests: { memory: '1GG' } } })] }), decodeError: "unable to parse quantity's suffix" },
  { name: 'Pod cpu limit as a bool', gvk: pod, obj: podWith({ containers: [container({ resources: { limits: { cpu: true } } })] }), decodeError: quantityError },
  { name: 'Pod creationTimestamp not RFC 3339', gvk: pod, obj: { metadata: { name: 'p', creationTimestamp: 'yesterday' } }, decodeError: 'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"' },
  { name: 'Pod creationTimestamp as a number', gvk: pod, obj: { metadata: { creationTimestamp: 5 } }, decodeError: 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.creationTimestamp of type string' },
  { name: 'Pod probe port as an array (int-or-string)', gvk: pod, obj: podWith({ containers: [container({ livenessProbe: { httpGet: { port: [80] } } })] }), decodeError: 'json: cannot unmarshal array into Go struct field HTTPGetAction.spec.containers.livenessProbe.httpGet.port of type int32' },

  { name: 'Service targetPort as a bool (int-or-string)', gvk: service, obj: { spec: { ports: [{ port: 80, targetPort: true }] } }, decodeError: 'json: cannot unmarshal bool into Go struct field ServicePort.spec.ports.targetPort of type int32' },
  { name: 'Service port past int32', gvk: service, obj: { spec: { ports: [{ port: 2147483648 }] } }, decodeError: 'json: cannot unmarshal number 2147483648 into Go struct field ServicePort.spec.ports.port of type int32' },
  { name: 'Service selector value as a bool', gvk: service, obj: { spec: { selector: { app: false } } }, decodeError: 'json: cannot unmarshal bool into Go struct field ServiceSpec.spec.selector of type string' },

  { name: 'ConfigMap data value as a number', gvk: configMap, obj: { data: { a: 1 } }, decodeError: 'json: cannot unmarshal number into Go struct field ConfigMap.data of type string' },
  { name: 'ConfigMap binaryData not base64', gvk: configMap, obj: { binaryData: { a: 'not base64!' } }, decodeError: 'illegal base64 data at input byte 3' },
  { name: 'ConfigMap immutable as a string', gvk: configMap, obj: { immutable: 'true' }, decodeError: 'json: cannot unmarshal string into Go struct field ConfigMap.immutable of type bool' },

  { name: 'Secret data not base64', gvk: secret, obj: { data: { password: 'admin' } }, decodeError: 'illegal base64 data at input byte 4' },
  { name: 'Secret data value as a number', gvk: secret, obj: { data: { password: 5 } }, decodeError: 'json: cannot unmarshal number into Go struct field Secret.data of type []uint8' },
  { name: 'Secret data as a byte array out of range', gvk: secret, obj: { data: { password: [1, 300] } }, decodeError: 'json: cannot unmarshal number 300 into Go struct field Secret.data of type uint8' },
  { name: 'Secret stringData value as an object', gvk: secret, obj: { stringData: { a: {} } }, decodeError: 'json: cannot unmarshal object into Go struct field Secret.stringData of type string' },

  { name: 'Job backoffLimit as a string', gvk: job, obj: { spec: { backoffLimit: 'six' } }, decodeError: 'json: cannot unmarshal string into Go struct field JobSpec.spec.backoffLimit of type int32' },
  { name: 'Job exit code not an integer', gvk: job, obj: { spec: { podFailurePolicy: { rules: [{ action: 'Ignore', onExitCodes: { operator: 'In', values: [1.5] } }] } } }, decodeError: 'json: cannot unmarshal number 1.5 into Go struct field PodFailurePolicyOnExitCodesRequirement.spec.podFailurePolicy.rules.onExitCodes.values of type int32' },

  { name: 'Role verbs as a string', gvk: role, obj: { rules: [{ apiGroups: [''], resources: ['pods'], verbs: 'get' }] }, decodeError: 'json: cannot unmarshal string into Go struct field PolicyRule.rules.verbs of type []string' },
  { name: 'Role rules as an object', gvk: role, obj: { rules: { verbs: ['get'] } }, decodeError: 'json: cannot unmarshal object into Go struct field Role.rules of type []v1.PolicyRule' },

  { name: 'HPA v2 averageUtilization as a string', gvk: hpaV2, obj: { spec: { metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: '50' } } }] } }, decodeError: 'json: cannot unmarshal string into Go struct field MetricTarget.spec.metrics.resource.target.averageUtilization of type int32' },
  { name: 'HPA v2 averageValue not a quantity', gvk: hpaV2, obj: { spec: { metrics: [{ type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: 'fast' } } }] } }, decodeError: quantityError },
  { name: 'HPA v2 stabilizationWindowSeconds past int32', gvk: hpaV2, obj: { spec: { behavior: { scaleUp: { stabilizationWindowSeconds: 99999999999 } } } }, decodeError: 'json: cannot unmarshal number 99999999999 into Go struct field HPAScalingRules.spec.behavior.scaleUp.stabilizationWindowSeconds of type int32' },
  { name: 'HPA v1 targetCPUUtilizationPercentage not an integer', gvk: hpaV1, obj: { spec: { maxReplicas: 3, targetCPUUtilizationPercentage: 1.5 } }, decodeError: 'json: cannot unmarshal number 1.5 into Go struct field HorizontalPodAutoscalerSpec.spec.targetCPUUtilizationPercentage of type int32' },
  { name: 'HPA v1 scaleTargetRef as a string', gvk: hpaV1, obj: { spec: { scaleTargetRef: 'web' } }, decodeError: 'json: cannot unmarshal string into Go struct field HorizontalPodAutoscalerSpec.spec.scaleTargetRef of type v1.CrossVersionObjectReference' },

  { name: 'core Event count as a string', gvk: coreEvent, obj: { involvedObject: { kind: 'Pod' }, count: 'one' }, decodeError: 'json: cannot unmarshal string into Go struct field Event.count of type int32' },
  { name: 'core Event lastTimestamp not RFC 3339', gvk: coreEvent, obj: { lastTimestamp: '2024-13-01T00:00:00Z' }, decodeError: 'parsing time "2024-13-01T00:00:00Z": month out of range' },
  { name: 'core Event eventTime without microseconds (MicroTime)', gvk: coreEvent, obj: { eventTime: '2024-01-01T00:00:00Z' }, decodeError: 'parsing time "2024-01-01T00:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"' },
  { name: 'events.k8s.io Event eventTime without microseconds', gvk: event, obj: { eventTime: '2024-01-01T00:00:00Z' }, decodeError: 'parsing time "2024-01-01T00:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"' },
  { name: 'events.k8s.io Event series count as a string', gvk: event, obj: { eventTime: '2024-01-01T00:00:00.000000Z', series: { count: 'x', lastObservedTime: '2024-01-01T00:00:00.000000Z' } }, decodeError: 'json: cannot unmarshal string into Go struct field EventSeries.series.count of type int32' },

  { name: 'Node capacity not a quantity (status is decoded too)', gvk: node, obj: { status: { capacity: { cpu: 'four' } } }, decodeError: quantityError },
  { name: 'Node taint timeAdded as a bool', gvk: node, obj: { spec: { taints: [{ key: 'k', effect: 'NoSchedule', timeAdded: true }] } }, decodeError: 'json: cannot unmarshal bool into Go struct field Taint.spec.taints.timeAdded of type string' },
  { name: 'Node unschedulable as a number', gvk: node, obj: { spec: { unschedulable: 1 } }, decodeError: 'json: cannot unmarshal number into Go struct field NodeSpec.spec.unschedulable of type bool' },

  { name: 'CRD scope as a number', gvk: crd, obj: { spec: { scope: 1 } }, decodeError: 'json: cannot unmarshal number into Go struct field CustomResourceDefinitionSpec.spec.scope of type v1.ResourceScope' },
  { name: 'CRD schema type as a number, through the properties map', gvk: crd, obj: { spec: { versions: [{ name: 'v1', schema: { openAPIV3Schema: { properties: { a: { type: 5 } } } } }] } }, decodeError: 'json: cannot unmarshal number into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.type of type string' },
  { name: 'CRD additionalProperties neither bool nor schema', gvk: crd, obj: { spec: { versions: [{ name: 'v1', schema: { openAPIV3Schema: { additionalProperties: 'yes' } } }] } }, decodeError: 'boolean or JSON schema expected' },
  { name: 'CRD items neither array nor schema', gvk: crd, obj: { spec: { versions: [{ name: 'v1', schema: { openAPIV3Schema: { items: true } } }] } }, decodeError: 'array or JSON schema expected' },
  { name: 'CRD type error inside items takes the context of items', gvk: crd, obj: { spec: { versions: [{ name: 'v1', schema: { openAPIV3Schema: { items: { maxLength: 'ten' } } } }] } }, decodeError: 'json: cannot unmarshal string into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.items of type int64' },
];

describe('checkDecode: Go decode errors', () => {
  for (const c of typeErrors) {
    test(c.name, () => {
      assert.equal(checkDecode(c.gvk, c.obj).decodeError, c.decodeError);
    });
  }
});

describe('checkDecode: which error Go reports', () => {
  test('the first type error in document order, as decoding goes on after it', () => {
    const r = checkDecode(deployment, deploymentWith({ replicas: '3', paused: 'no', minReadySeconds: 'x' }));
    assert.equal(r.decodeError, 'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32');
  });

  test('a custom decoder error ends decoding and wins over an earlier saved one', () => {
    const r = checkDecode(deployment, { spec: { replicas: '3', template: { metadata: { creationTimestamp: 'later' } } } });
    assert.equal(r.decodeError, 'parsing time "later" as "2006-01-02T15:04:05Z07:00": cannot parse "later" as "2006"');
  });

  test('the first custom decoder error wins over a later one', () => {
    const r = checkDecode(pod, podWith({ containers: [container({ resources: { limits: { cpu: 'x' }, requests: { memory: '1Gb' } } })] }));
    assert.equal(r.decodeError, quantityError);
  });

  test('base64 errors are saved like type errors: a later quantity error wins', () => {
    const r = checkDecode(secret, { data: { a: 'admin' }, metadata: { creationTimestamp: 'x' } });
    assert.equal(r.decodeError, 'parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"');
  });

  test('values under an unknown field are not decoded', () => {
    const r = checkDecode(deployment, deploymentWith({ bogus: { replicas: 'x' } }));
    assert.equal(r.decodeError, undefined);
    assert.deepEqual(r.unknownFields, ['spec.bogus']);
  });

  test('null is never a decode error', () => {
    const r = checkDecode(deployment, deploymentWith({ replicas: null, strategy: null, template: { metadata: { creationTimestamp: null }, spec: { containers: null } } }));
    assert.equal(r.decodeError, undefined);
  });

  test('valid objects of every kind decode cleanly', () => {
    const objects: [GVK, Record<string, unknown>][] = [
      [pod, podWith({ containers: [container({ resources: { limits: { cpu: '500m', memory: 128974848 } }, ports: [{ containerPort: 80 }] })] })],
      [deployment, deploymentWith({ replicas: 3, strategy: { rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } } })],
      [service, { spec: { ports: [{ port: 80, targetPort: 'http' }], selector: { app: 'a' } } }],
      [configMap, { data: { a: 'b' }, binaryData: { b: 'YWJj' } }],
      [secret, { data: { a: 'YWRtaW4=' }, stringData: { b: 'c' }, type: 'Opaque' }],
      [job, { spec: { template: { spec: { containers: [container({})], restartPolicy: 'Never' } }, backoffLimit: 6 } }],
      [role, { rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] }],
      [hpaV2, { spec: { scaleTargetRef: { kind: 'Deployment', name: 'd' }, maxReplicas: 5, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'AverageValue', averageValue: '100m' } } }] } }],
      [hpaV1, { spec: { scaleTargetRef: { kind: 'Deployment', name: 'd' }, maxReplicas: 5, targetCPUUtilizationPercentage: 80 } }],
      [coreEvent, { involvedObject: { kind: 'Pod', name: 'p' }, firstTimestamp: '2024-01-01T00:00:00Z', eventTime: '2024-01-01T00:00:00.123456Z', count: 2 }],
      [event, { eventTime: '2024-01-01T00:00:00.000000Z', regarding: { kind: 'Pod' }, deprecatedCount: 1 }],
      [node, { spec: { podCIDRs: ['10.0.0.0/24'] }, status: { capacity: { cpu: '4', memory: '8Gi' } } }],
    ];
    for (const [gvk, obj] of objects) {
      const r = checkDecode(gvk, obj);
      assert.equal(r.decodeError, undefined, `${gvk.kind}: ${String(r.decodeError)}`);
      assert.deepEqual(r.unknownFields, [], gvk.kind);
      assert.deepEqual(r.object, obj, gvk.kind);
    }
  });
});

const unknownCases: DecodeCase[] = [
  { name: 'Deployment: spec, container and metadata fields, in document order', gvk: deployment, obj: { metadata: { name: 'd', bogus: 1 }, spec: { foo: 1, template: { spec: { containers: [{ name: 'a' }, { name: 'b', bar: 2 }] } }, bar: 3 } }, unknownFields: ['metadata.bogus', 'spec.foo', 'spec.template.spec.containers[1].bar', 'spec.bar'] },
  { name: 'Deployment: a misplaced containers list under template metadata', gvk: deployment, obj: { spec: { template: { metadata: { containers: [], volumes: [] } } } }, unknownFields: ['spec.template.metadata.containers', 'spec.template.metadata.volumes'] },
  { name: 'Deployment: a top-level field', gvk: deployment, obj: { apiVersion: 'apps/v1', kind: 'Deployment', extra: true }, unknownFields: ['extra'] },
  { name: 'Deployment: initContainers[0].restartPolicy is known in 1.33', gvk: deployment, obj: { spec: { template: { spec: { initContainers: [{ name: 'i', restartPolicy: 'Always', restartPolicyy: 'x' }] } } } }, unknownFields: ['spec.template.spec.initContainers[0].restartPolicyy'] },
  { name: 'Pod: requests misplaced beside resources', gvk: pod, obj: podWith({ containers: [container({ resources: {}, requests: { cpu: '1' } })] }), unknownFields: ['spec.containers[0].requests'] },
  { name: 'Pod: matching is case-sensitive', gvk: pod, obj: podWith({ RestartPolicy: 'Always' }), unknownFields: ['spec.RestartPolicy'] },
  { name: 'Pod: a nested volume source field', gvk: pod, obj: podWith({ volumes: [{ name: 'v', configMap: { name: 'c', itemz: [] } }] }), unknownFields: ['spec.volumes[0].configMap.itemz'] },
  { name: 'Service: port fields', gvk: service, obj: { spec: { ports: [{ port: 80, target: 8080 }] } }, unknownFields: ['spec.ports[0].target'] },
  { name: 'ConfigMap: map values keep any key; unknown siblings go', gvk: configMap, obj: { data: { 'any.key': 'v' }, datas: {} }, unknownFields: ['datas'] },
  { name: 'Secret: stringdata is not stringData', gvk: secret, obj: { stringdata: { a: 'b' } }, unknownFields: ['stringdata'] },
  { name: 'Job: template spec field', gvk: job, obj: { spec: { template: { spec: { restartpolicy: 'Never' } } } }, unknownFields: ['spec.template.spec.restartpolicy'] },
  { name: 'Role: rule field', gvk: role, obj: { rules: [{ verbs: ['get'], resource: ['pods'] }] }, unknownFields: ['rules[0].resource'] },
  { name: 'HPA v2: a v1 field', gvk: hpaV2, obj: { spec: { targetCPUUtilizationPercentage: 80 } }, unknownFields: ['spec.targetCPUUtilizationPercentage'] },
  { name: 'HPA v1: a v2 field', gvk: hpaV1, obj: { spec: { metrics: [] } }, unknownFields: ['spec.metrics'] },
  { name: 'core Event: a field of events.k8s.io', gvk: coreEvent, obj: { regarding: {} }, unknownFields: ['regarding'] },
  { name: 'events.k8s.io Event: a field of core', gvk: event, obj: { involvedObject: {} }, unknownFields: ['involvedObject'] },
  { name: 'Node: status field', gvk: node, obj: { status: { capacity: {}, capacities: {} } }, unknownFields: ['status.capacities'] },
  { name: 'CRD: schema fields through maps join keys with dots', gvk: crd, obj: { spec: { versions: [{ name: 'v1', schema: { openAPIV3Schema: { tpye: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer', bogus: 1 } } } } } } }] } }, unknownFields: ['spec.versions[0].schema.openAPIV3Schema.tpye', 'spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.size.bogus'] },
];

describe('checkDecode: unknown fields', () => {
  for (const c of unknownCases) {
    test(c.name, () => {
      const r = checkDecode(c.gvk, c.obj);
      assert.equal(r.decodeError, undefined);
      assert.deepEqual(r.unknownFields, c.unknownFields);
    });
  }

  test('unknown fields are pruned from a new object; the input is untouched', () => {
    const obj = { metadata: { name: 'd', bogus: 1 }, spec: { foo: 1, replicas: 2, template: { spec: { containers: [{ name: 'a', bar: 2 }] } } } };
    const before = structuredClone(obj);
    const r = checkDecode(deployment, obj);
    assert.deepEqual(r.object, { metadata: { name: 'd' }, spec: { replicas: 2, template: { spec: { containers: [{ name: 'a' }] } } } });
    assert.deepEqual(obj, before);
    assert.notEqual(r.object, obj);
    assert.notEqual((r.object.spec as Record<string, unknown>).template, obj.spec.template);
  });

  test('apiVersion, kind and the standard metadata are always known', () => {
    const obj = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'n', generateName: 'g', namespace: 'ns', uid: 'u', resourceVersion: '1', generation: 1, creationTimestamp: '2024-01-01T00:00:00Z',
        deletionTimestamp: null, deletionGracePeriodSeconds: 30, labels: { a: 'b' }, annotations: { c: 'd' }, finalizers: ['f'], selfLink: '',
        ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'x', controller: true, blockOwnerDeletion: true }],
        managedFields: [{ manager: 'kubectl', operation: 'Apply', apiVersion: 'v1', time: '2024-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:a': {} } }, subresource: '' }],
      },
    };
    const r = checkDecode(configMap, obj);
    assert.deepEqual(r.unknownFields, []);
    assert.equal(r.decodeError, undefined);
    assert.deepEqual(r.object, obj);
  });

  test('free-form values keep everything under them: RawExtension, FieldsV1, CRD JSON', () => {
    const revision = { data: { spec: { anything: [1, { deep: true }] } }, revision: 1 };
    assert.deepEqual(checkDecode(controllerRevision, revision), { object: revision, unknownFields: [] });
    const crdObj = {
      spec: {
        group: 'example.com',
        names: { plural: 'widgets', kind: 'Widget' },
        scope: 'Namespaced',
        versions: [{
          name: 'v1', served: true, storage: true,
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, default: { any: { thing: 1 } }, example: [1, 'two'], enum: [{ a: 1 }, 'b'] } },
        }],
      },
    };
    const r = checkDecode(crd, crdObj);
    assert.deepEqual(r.unknownFields, []);
    assert.deepEqual(r.object, crdObj);
  });

  test('inside JSONSchemaPropsOrBool/OrArray the standard library drops unknown fields silently', () => {
    const schema = { type: 'object', additionalProperties: { type: 'string', bogus: 1 }, items: [{ type: 'string', junk: 2 }] };
    const r = checkDecode(crd, { spec: { versions: [{ name: 'v1', schema: { openAPIV3Schema: schema } }] } });
    assert.deepEqual(r.unknownFields, []);
    assert.equal(r.decodeError, undefined);
    const out = (((r.object.spec as Record<string, unknown>).versions as Record<string, unknown>[])[0]?.schema as Record<string, unknown>).openAPIV3Schema;
    assert.deepEqual(out, { type: 'object', additionalProperties: { type: 'string' }, items: [{ type: 'string' }] });
  });

  test('a kind without a schema is copied and not checked', () => {
    const obj = { spec: { anything: 1 } };
    const r = checkDecode({ group: 'example.com', version: 'v1', kind: 'Widget' }, obj);
    assert.deepEqual(r, { object: obj, unknownFields: [] });
    assert.notEqual(r.object, obj);
  });
});

describe('checkDecode: integers written with a fraction or an exponent', () => {
  const decodeText = (gvk: GVK, text: string): string | undefined => {
    const parsed = parseStrictJson(text);
    return checkDecode(gvk, parsed.value as Record<string, unknown>, parsed.numberLiterals).decodeError;
  };
  const deploymentText = (replicas: string): string =>
    JSON.stringify(deploymentWith({ replicas: 0 })).replace('"replicas":0', `"replicas":${replicas}`);

  for (const literal of ['1e3', '1.0', '1E3', '-0.0e1', '2e+0']) {
    test(`"replicas":${literal} is refused with the literal as written, as strconv.ParseInt refuses it`, () => {
      assert.equal(decodeText(deployment, deploymentText(literal)), `json: cannot unmarshal number ${literal} into Go struct field DeploymentSpec.spec.replicas of type int32`);
    });
  }

  test('a plain integer, and numbers written so inside strings, decode', () => {
    assert.equal(decodeText(deployment, deploymentText('1000')), undefined);
    const cm = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","labels":{"v":"1.0"}},"data":{"a":"1e3","b":"v1.2.3"}}';
    assert.equal(parseStrictJson(cm).numberLiterals, undefined);
    assert.equal(decodeText(configMap, cm), undefined);
  });

  test('an int64 in a list and an IntOrString port say the same', () => {
    const pod1 = '{"kind":"Pod","spec":{"activeDeadlineSeconds":3.0e1,"containers":[{"name":"c","image":"i","ports":[{"containerPort":80}]}]}}';
    assert.equal(decodeText(pod, pod1), 'json: cannot unmarshal number 3.0e1 into Go struct field PodSpec.spec.activeDeadlineSeconds of type int64');
    const pod2 = '{"kind":"Pod","spec":{"containers":[{"name":"c","image":"i","readinessProbe":{"httpGet":{"port":8.0e1}}}]}}';
    assert.match(decodeText(pod, pod2) ?? '', /^json: cannot unmarshal number 8\.0e1 into Go struct field .*port of type int32$/);
  });
});

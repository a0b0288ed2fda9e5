/**
 * Generates proto/gen/messages.ts from hack/api-data/proto/fields.json (every Kubernetes 1.33
 * protobuf message) and hack/api-data/openapi/v2/swagger.json (JSON names, required fields, kinds).
 *
 * For each message it records, per field: number, JSON name, scalar type or message, repeated/map,
 * whether it is a Go-embedded struct (its fields sit inline in the parent's JSON object), and how
 * kube's Go types treat presence (non-pointer values are always written; omitempty; pointers).
 * It also records the group/version/kind of every top-level kind. `--check` regenerates in memory
 * and fails when the committed file differs.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FieldFlag, type PackedField, type PackedKind, type PackedMessage, type SpecialKind } from '../proto/types.js';

interface RawField {
  name: string;
  number: number;
  label: 'optional' | 'repeated' | 'map';
  resolvedType?: string;
  scalar?: boolean;
  resolvedKeyType?: string;
  resolvedValueType?: string;
}

interface RawMessage {
  package: string;
  name: string;
  fullName: string;
  openapiName: string | null;
  fields: RawField[];
}

interface SchemaDef {
  type?: string;
  properties?: Record<string, unknown>;
  required?: string[];
  'x-kubernetes-group-version-kind'?: { group: string; version: string; kind: string }[];
}

/** What names and requiredness a message's fields are matched against. */
interface PropertyContext {
  props: Map<string, string>; // normalised name -> JSON property name
  required: Set<string>;
}

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const fieldsInput = join(root, 'hack', 'api-data', 'proto', 'fields.json');
const swaggerInput = join(root, 'hack', 'api-data', 'openapi', 'v2', 'swagger.json');
const output = join(root, 'proto', 'gen', 'messages.ts');

const SCALARS = new Set(['string', 'bytes', 'bool', 'int32', 'int64', 'uint32', 'uint64', 'sint32', 'sint64', 'fixed32', 'fixed64', 'sfixed32', 'sfixed64', 'float', 'double']);

/** Messages with custom JSON marshalling in kube's Go code, by full name. */
const SPECIAL: Record<string, SpecialKind> = {
  'k8s.io.apimachinery.pkg.apis.meta.v1.Time': 'time',
  'k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime': 'microTime',
  'k8s.io.apimachinery.pkg.apis.meta.v1.Duration': 'duration',
  'k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1': 'rawJson',
  'k8s.io.apimachinery.pkg.api.resource.Quantity': 'quantity',
  'k8s.io.apimachinery.pkg.api.resource.QuantityValue': 'quantity',
  'k8s.io.apimachinery.pkg.util.intstr.IntOrString': 'intOrString',
  'k8s.io.apimachinery.pkg.runtime.RawExtension': 'rawJson',
};
for (const v of ['v1', 'v1beta1']) {
  const p = `k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.${v}`;
  SPECIAL[`${p}.JSON`] = 'rawJson';
  SPECIAL[`${p}.JSONSchemaPropsOrBool`] = 'schemaOrBool';
  SPECIAL[`${p}.JSONSchemaPropsOrArray`] = 'schemaOrArray';
  SPECIAL[`${p}.JSONSchemaPropsOrStringArray`] = 'schemaOrStringArray';
}

/**
 * Go field shapes the OpenAPI data cannot express (it has no pointer-ness, and optional fields look
 * alike whether they are `*int32` or `int32,omitempty`). Keys are message names after
 * `k8s.io.api.` / `k8s.io.apimachinery.pkg.apis.`; values are JSON names. `value` fields are Go
 * non-pointers (kube always writes them to Protobuf, and drops their zero value from JSON);
 * `pointer` fields are Go pointers (written only when set; a set zero value stays in JSON);
 * `always` fields are optional in OpenAPI but have no omitempty (a nil slice is JSON null).
 * Fields listed nowhere fall back to the defaults described in proto/README.md.
 */
const GO_SHAPES: Record<string, { value?: string; pointer?: string; always?: string }> = {
  'meta.v1.ObjectMeta': { value: 'name generateName namespace selfLink uid resourceVersion generation creationTimestamp', pointer: 'deletionTimestamp deletionGracePeriodSeconds' },
  'meta.v1.ListMeta': { value: 'selfLink resourceVersion continue', pointer: 'remainingItemCount' },
  'meta.v1.Status': { value: 'metadata status message reason code', pointer: 'details' },
  'meta.v1.StatusDetails': { value: 'name group kind uid retryAfterSeconds' },
  'meta.v1.StatusCause': { value: 'reason message field' },
  'meta.v1.OwnerReference': { pointer: 'controller blockOwnerDeletion' },
  'meta.v1.ManagedFieldsEntry': { value: 'manager operation apiVersion fieldsType subresource', pointer: 'time fieldsV1' },
  'meta.v1.Condition': { value: 'observedGeneration' },
  'meta.v1.ListOptions': { value: 'labelSelector fieldSelector watch allowWatchBookmarks resourceVersion resourceVersionMatch limit continue', pointer: 'timeoutSeconds sendInitialEvents' },
  'meta.v1.GetOptions': { value: 'resourceVersion' },
  'meta.v1.CreateOptions': { value: 'fieldManager fieldValidation' },
  'meta.v1.UpdateOptions': { value: 'fieldManager fieldValidation' },
  'meta.v1.PatchOptions': { value: 'fieldManager fieldValidation', pointer: 'force' },
  'meta.v1.DeleteOptions': { pointer: 'gracePeriodSeconds preconditions orphanDependents propagationPolicy ignoreStoreReadErrorWithClusterBreakingPotential' },
  'meta.v1.Preconditions': { pointer: 'uid resourceVersion' },
  'meta.v1.APIResource': { value: 'group version storageVersionHash' },
  'meta.v1.APIGroup': { value: 'preferredVersion' },
  'meta.v1.PartialObjectMetadata': { value: 'metadata' },
  'core.v1.ObjectReference': { value: 'kind namespace name uid apiVersion resourceVersion fieldPath' },
  'core.v1.LocalObjectReference': { value: 'name' },
  'core.v1.Container': { value: 'image workingDir resources terminationMessagePath terminationMessagePolicy imagePullPolicy stdin stdinOnce tty', pointer: 'restartPolicy' },
  'core.v1.EphemeralContainerCommon': { value: 'image workingDir resources terminationMessagePath terminationMessagePolicy imagePullPolicy stdin stdinOnce tty', pointer: 'restartPolicy' },
  'core.v1.EphemeralContainer': { value: 'targetContainerName' },
  'core.v1.ContainerPort': { value: 'name hostPort protocol hostIP' },
  'core.v1.EnvVar': { value: 'value' },
  'core.v1.VolumeMount': { value: 'readOnly subPath subPathExpr', pointer: 'recursiveReadOnly mountPropagation' },
  'core.v1.Probe': { value: 'initialDelaySeconds timeoutSeconds periodSeconds successThreshold failureThreshold', pointer: 'terminationGracePeriodSeconds' },
  'core.v1.PodSpec': {
    value: 'restartPolicy dnsPolicy serviceAccountName serviceAccount nodeName hostNetwork hostPID hostIPC hostname subdomain schedulerName priorityClassName',
    pointer: 'shareProcessNamespace terminationGracePeriodSeconds activeDeadlineSeconds automountServiceAccountToken priority enableServiceLinks hostUsers setHostnameAsFQDN runtimeClassName preemptionPolicy',
  },
  'core.v1.PodStatus': { value: 'phase message reason nominatedNodeName hostIP podIP qosClass resize observedGeneration', pointer: 'startTime' },
  'core.v1.PodCondition': { value: 'lastProbeTime lastTransitionTime reason message observedGeneration' },
  'core.v1.ContainerStatus': { value: 'containerID state lastState', pointer: 'started' },
  'core.v1.ContainerStateWaiting': { value: 'reason message' },
  'core.v1.ContainerStateRunning': { value: 'startedAt' },
  'core.v1.ContainerStateTerminated': { value: 'signal reason message startedAt finishedAt containerID' },
  'core.v1.PodTemplateSpec': { value: 'metadata spec' },
  'core.v1.ServiceSpec': {
    value: 'clusterIP type externalName sessionAffinity loadBalancerIP externalTrafficPolicy healthCheckNodePort publishNotReadyAddresses',
    pointer: 'ipFamilyPolicy allocateLoadBalancerNodePorts loadBalancerClass internalTrafficPolicy trafficDistribution',
  },
  'core.v1.ServiceStatus': { value: 'loadBalancer' },
  'core.v1.ServicePort': { value: 'name protocol targetPort nodePort', pointer: 'appProtocol' },
  'core.v1.PersistentVolumeClaimSpec': { value: 'volumeName resources', pointer: 'storageClassName volumeMode volumeAttributesClassName' },
  'core.v1.PersistentVolumeSpec': { value: 'persistentVolumeReclaimPolicy storageClassName', pointer: 'volumeMode volumeAttributesClassName' },
  'core.v1.Secret': { value: 'type', pointer: 'immutable' },
  'core.v1.ConfigMap': { pointer: 'immutable' },
  'core.v1.NodeSpec': { value: 'podCIDR providerID unschedulable externalID' },
  'core.v1.NamespaceStatus': { value: 'phase' },
  'core.v1.KeyToPath': { pointer: 'mode' },
  'core.v1.SecretVolumeSource': { value: 'secretName', pointer: 'defaultMode optional' },
  'core.v1.ConfigMapVolumeSource': { pointer: 'defaultMode optional' },
  'core.v1.ConfigMapKeySelector': { pointer: 'optional' },
  'core.v1.SecretKeySelector': { pointer: 'optional' },
  'core.v1.ConfigMapEnvSource': { pointer: 'optional' },
  'core.v1.SecretEnvSource': { pointer: 'optional' },
  'core.v1.Event': {
    value: 'involvedObject reason message source firstTimestamp lastTimestamp count type eventTime action reportingComponent reportingInstance',
    pointer: 'series related',
  },
  'core.v1.EventSource': { value: 'component host' },
  'core.v1.EmptyDirVolumeSource': { value: 'medium', pointer: 'sizeLimit' },
  'core.v1.HostPathVolumeSource': { pointer: 'type' },
  'core.v1.ServiceAccount': { pointer: 'automountServiceAccountToken' },
  'core.v1.Toleration': { value: 'key operator value effect', pointer: 'tolerationSeconds' },
  'core.v1.ReplicationControllerSpec': { value: 'minReadySeconds', pointer: 'replicas template' },
  'apps.v1.DeploymentSpec': { value: 'template strategy minReadySeconds paused', pointer: 'replicas revisionHistoryLimit progressDeadlineSeconds' },
  'apps.v1.DeploymentStatus': { value: 'observedGeneration replicas updatedReplicas readyReplicas availableReplicas unavailableReplicas', pointer: 'terminatingReplicas collisionCount' },
  'apps.v1.DeploymentStrategy': { value: 'type' },
  'apps.v1.DeploymentCondition': { value: 'lastUpdateTime lastTransitionTime reason message' },
  'apps.v1.ReplicaSetSpec': { value: 'minReadySeconds template', pointer: 'replicas' },
  'apps.v1.ReplicaSetStatus': { value: 'fullyLabeledReplicas readyReplicas availableReplicas observedGeneration', pointer: 'terminatingReplicas' },
  'apps.v1.StatefulSetSpec': { value: 'serviceName podManagementPolicy updateStrategy minReadySeconds template', pointer: 'replicas revisionHistoryLimit' },
  'apps.v1.StatefulSetStatus': { value: 'observedGeneration readyReplicas currentReplicas updatedReplicas currentRevision updateRevision', pointer: 'collisionCount', always: 'availableReplicas' },
  'apps.v1.StatefulSetUpdateStrategy': { value: 'type' },
  'apps.v1.DaemonSetSpec': { value: 'updateStrategy minReadySeconds template', pointer: 'revisionHistoryLimit' },
  'apps.v1.DaemonSetStatus': { value: 'observedGeneration updatedNumberScheduled numberAvailable numberUnavailable', pointer: 'collisionCount' },
  'apps.v1.DaemonSetUpdateStrategy': { value: 'type' },
  'apps.v1.ControllerRevision': { value: 'data' },
  'batch.v1.JobSpec': {
    value: 'template',
    pointer: 'parallelism completions activeDeadlineSeconds backoffLimit backoffLimitPerIndex maxFailedIndexes manualSelector ttlSecondsAfterFinished completionMode suspend podReplacementPolicy managedBy',
  },
  'batch.v1.JobStatus': { value: 'active succeeded failed completedIndexes', pointer: 'startTime completionTime terminating ready failedIndexes' },
  'batch.v1.CronJobSpec': { value: 'concurrencyPolicy jobTemplate', pointer: 'timeZone startingDeadlineSeconds suspend successfulJobsHistoryLimit failedJobsHistoryLimit' },
  'batch.v1.CronJobStatus': { pointer: 'lastScheduleTime lastSuccessfulTime' },
  'batch.v1.JobTemplateSpec': { value: 'metadata spec' },
  'coordination.v1.LeaseSpec': { pointer: 'holderIdentity leaseDurationSeconds acquireTime renewTime leaseTransitions strategy preferredHolder' },
  'networking.v1.IngressSpec': { pointer: 'ingressClassName defaultBackend' },
  'networking.v1.HTTPIngressPath': { value: 'path', pointer: 'pathType' },
  'networking.v1.ServiceBackendPort': { value: 'name number' },
  'networking.v1.NetworkPolicyPort': { pointer: 'protocol port endPort' },
  'rbac.v1.Subject': { value: 'apiGroup namespace' },
  'rbac.v1.Role': { always: 'rules' },
  'rbac.v1.ClusterRole': { always: 'rules' },
  'policy.v1.PodDisruptionBudgetStatus': { value: 'observedGeneration' },
  'scheduling.v1.PriorityClass': { value: 'globalDefault description', pointer: 'preemptionPolicy' },
  'storage.v1.StorageClass': { pointer: 'reclaimPolicy allowVolumeExpansion volumeBindingMode' },
};

const norm = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/g, '');
const lcFirst = (s: string): string => s.charAt(0).toLowerCase() + s.slice(1);
const shortName = (fullName: string): string => fullName.slice(fullName.lastIndexOf('.') + 1);
const groupOf = (pkg: string): string => pkg.slice(0, pkg.lastIndexOf('.'));

function contextOf(def: SchemaDef | undefined): PropertyContext | undefined {
  if (!def) return undefined;
  const props = new Map<string, string>();
  for (const p of Object.keys(def.properties ?? {})) props.set(norm(p), p);
  return { props, required: new Set(def.required ?? []) };
}

function shapesFor(fullName: string): { value: Set<string>; pointer: Set<string>; always: Set<string> } {
  const key = fullName.replace(/^k8s\.io\.api\./, '').replace(/^k8s\.io\.apimachinery\.pkg\.apis\./, '');
  const s = GO_SHAPES[key];
  const words = (x?: string) => new Set((x ?? '').split(/\s+/).filter(Boolean));
  return { value: words(s?.value), pointer: words(s?.pointer), always: words(s?.always) };
}

function build(messages: RawMessage[], defs: Record<string, SchemaDef>): { packages: string[]; packed: PackedMessage[]; kinds: PackedKind[]; warnings: string[] } {
  const warnings: string[] = [];
  const sorted = [...messages].sort((a, b) => (a.fullName < b.fullName ? -1 : a.fullName > b.fullName ? 1 : 0));
  const index = new Map(sorted.map((m, i) => [m.fullName, i]));
  const byName = new Map(sorted.map((m) => [m.fullName, m]));
  const packages = [...new Set(sorted.map((m) => m.package))].sort();
  const pkgIndex = new Map(packages.map((p, i) => [p, i]));

  const isPlainMessageField = (f: RawField): boolean =>
    f.label === 'optional' && !f.scalar && !!f.resolvedType && byName.has(f.resolvedType) && !SPECIAL[f.resolvedType];

  // Contexts: a message's own OpenAPI definition; for a message without one, the definition of a
  // parent that embeds it, or of the same-named message in another version of its group.
  const contexts = new Map<string, PropertyContext>();
  for (const m of sorted) {
    const c = m.openapiName ? contextOf(defs[m.openapiName]) : undefined;
    if (c) contexts.set(m.fullName, c);
  }
  const embeddedPairs = new Set<string>(); // "fieldName typeShortName" seen embedded in served types
  // With an authoritative context a message field with no JSON property is embedded; otherwise
  // (no definition, or only a sibling version's) use the embeddings seen in served types.
  const inlineOf = (m: RawMessage, f: RawField, ctx: PropertyContext | undefined): boolean => {
    if (!isPlainMessageField(f)) return false;
    if (ctx) return !ctx.props.has(norm(f.name));
    return embeddedPairs.has(`${f.name} ${shortName(f.resolvedType!)}`);
  };
  for (const m of sorted) {
    const ctx = contexts.get(m.fullName);
    if (!ctx) continue;
    for (const f of m.fields) if (inlineOf(m, f, ctx)) embeddedPairs.add(`${f.name} ${shortName(f.resolvedType!)}`);
  }
  // Propagate parent contexts into embedded messages without definitions (VolumeSource, ProbeHandler, ...).
  for (let changed = true; changed; ) {
    changed = false;
    for (const m of sorted) {
      const ctx = contexts.get(m.fullName);
      if (!ctx) continue;
      for (const f of m.fields) {
        if (!inlineOf(m, f, ctx) || contexts.has(f.resolvedType!)) continue;
        contexts.set(f.resolvedType!, ctx);
        changed = true;
      }
    }
  }
  const siblings = new Map<string, PropertyContext>();
  for (const m of sorted) {
    const ctx = contexts.get(m.fullName);
    const key = `${groupOf(m.package)}.${m.name}`;
    if (ctx && (!siblings.has(key) || m.openapiName)) siblings.set(key, ctx);
  }
  const siblingFor = (m: RawMessage) => (contexts.has(m.fullName) ? undefined : siblings.get(`${groupOf(m.package)}.${m.name}`));

  const topLevel = new Set<string>();
  for (const [name, def] of Object.entries(defs)) if (def['x-kubernetes-group-version-kind']) topLevel.add(name);

  const packed: PackedMessage[] = sorted.map((m) => {
    let special: SpecialKind = SPECIAL[m.fullName] ?? '';
    const only = m.fields[0];
    if (!special && !m.openapiName && m.fields.length === 1 && only.name === 'items' && only.label === 'repeated' && only.resolvedType === 'string') special = 'stringList';
    const ctx = contexts.get(m.fullName);
    const sibling = siblingFor(m);
    const shapes = shapesFor(m.fullName);
    const isTop = !!m.openapiName && topLevel.has(m.openapiName);
    const fields: PackedField[] = m.fields.map((f) => {
      const inline = !special && inlineOf(m, f, ctx);
      let jsonName = (ctx ?? sibling)?.props.get(norm(f.name));
      if (!jsonName) {
        jsonName = /^[A-Z][a-z]/.test(f.name) ? lcFirst(f.name) : f.name;
        if (ctx && !special && !inline) warnings.push(`${m.fullName}.${f.name}: no OpenAPI property; using "${jsonName}"`);
      }
      let type: string | number;
      let flags = 0;
      if (f.label === 'map') {
        flags |= FieldFlag.map;
        if (f.resolvedKeyType !== 'string') throw new Error(`${m.fullName}.${f.name}: map key ${f.resolvedKeyType} is not string`);
        const v = f.resolvedValueType!;
        type = SCALARS.has(v) ? v : index.get(v) ?? fail(`${m.fullName}.${f.name}: unknown map value ${v}`);
      } else {
        const t = f.resolvedType!;
        type = SCALARS.has(t) ? t : index.get(t) ?? fail(`${m.fullName}.${f.name}: unknown type ${t}`);
        if (f.label === 'repeated') flags |= FieldFlag.repeated;
      }
      if (inline) flags |= FieldFlag.inline | FieldFlag.value;
      else if (special) flags |= FieldFlag.value;
      else {
        const required = (ctx ?? sibling)?.required.has(jsonName) ?? false;
        if (required) flags |= FieldFlag.value;
        else flags |= FieldFlag.omitEmpty;
        if (shapes.value.has(jsonName)) flags |= FieldFlag.value;
        if (shapes.pointer.has(jsonName)) flags = (flags & ~FieldFlag.value) | FieldFlag.pointer;
        if (shapes.always.has(jsonName)) flags = (flags & ~FieldFlag.omitEmpty) | FieldFlag.value;
        const isStruct = typeof type === 'number' && f.label === 'optional';
        if (isTop && isStruct && ['metadata', 'spec', 'status'].includes(jsonName) && !shapes.pointer.has(jsonName)) flags |= FieldFlag.value;
      }
      return [f.number, jsonName, type, flags] as const;
    });
    for (const key of [...shapes.value, ...shapes.pointer, ...shapes.always]) {
      if (!fields.some((f) => f[1] === key)) throw new Error(`GO_SHAPES ${m.fullName}: no field ${key}`);
    }
    return [pkgIndex.get(m.package)!, m.name, special, fields] as const;
  });
  for (const key of Object.keys(GO_SHAPES)) {
    if (!sorted.some((m) => m.fullName === `k8s.io.api.${key}` || m.fullName === `k8s.io.apimachinery.pkg.apis.${key}`)) throw new Error(`GO_SHAPES: no message ${key}`);
  }

  const byOpenapi = new Map(sorted.filter((m) => m.openapiName).map((m) => [m.openapiName!, m]));
  const kinds: PackedKind[] = [];
  for (const [name, def] of Object.entries(defs)) {
    for (const gvk of def['x-kubernetes-group-version-kind'] ?? []) {
      const m = byOpenapi.get(name);
      if (!m) {
        warnings.push(`${gvk.group}/${gvk.version} ${gvk.kind}: no protobuf message for ${name}`);
        continue;
      }
      kinds.push([gvk.group, gvk.version, gvk.kind, index.get(m.fullName)!]);
    }
  }
  // Kinds kube registers in code rather than in the OpenAPI document: the option kinds that
  // metav1.AddToGroupVersion adds to every group version, the meta.k8s.io group's own kinds
  // (metadata-only responses, options), and core's v1 List.
  const have = new Set(kinds.map(([g, v, k]) => `${g}/${v}/${k}`));
  const add = (group: string, version: string, kind: string, fullName: string) => {
    if (have.has(`${group}/${version}/${kind}`)) return;
    const i = index.get(fullName) ?? fail(`supplementary kind ${kind}: no message ${fullName}`);
    have.add(`${group}/${version}/${kind}`);
    kinds.push([group, version, kind, i]);
  };
  const meta = 'k8s.io.apimachinery.pkg.apis.meta.v1';
  const optionKinds = ['ListOptions', 'GetOptions', 'DeleteOptions', 'CreateOptions', 'UpdateOptions', 'PatchOptions'];
  const groupVersions = new Set(kinds.filter(([, , k]) => k === 'WatchEvent').map(([g, v]) => `${g}/${v}`));
  groupVersions.add('meta.k8s.io/v1');
  for (const gv of groupVersions) {
    const [g, v] = gv.split('/') as [string, string];
    for (const kind of [...optionKinds, 'WatchEvent']) add(g, v, kind, `${meta}.${kind}`);
  }
  for (const kind of ['PartialObjectMetadata', 'PartialObjectMetadataList', 'TableOptions']) add('meta.k8s.io', 'v1', kind, `${meta}.${kind}`);
  add('meta.k8s.io', 'v1beta1', 'PartialObjectMetadata', `${meta}.PartialObjectMetadata`);
  add('meta.k8s.io', 'v1beta1', 'PartialObjectMetadataList', 'k8s.io.apimachinery.pkg.apis.meta.v1beta1.PartialObjectMetadataList');
  add('meta.k8s.io', 'v1beta1', 'TableOptions', `${meta}.TableOptions`);
  add('', 'v1', 'List', 'k8s.io.api.core.v1.List');
  const kindKey = (k: PackedKind) => `${k[0]}/${k[1]}/${k[2]}`;
  kinds.sort((a, b) => (kindKey(a) < kindKey(b) ? -1 : kindKey(a) > kindKey(b) ? 1 : 0));
  return { packages, packed, kinds, warnings };
}

function fail(message: string): never {
  throw new Error(message);
}

function render(packages: string[], packed: PackedMessage[], kinds: PackedKind[]): string {
  const lines: string[] = [];
  lines.push('// Code generated by hack/gen-proto.ts from hack/api-data/proto/fields.json and hack/api-data/openapi/v2/swagger.json. DO NOT EDIT.');
  lines.push('/* eslint-disable */');
  lines.push("import type { PackedTable } from '../types.js';");
  lines.push('');
  lines.push('/**');
  lines.push(' * Every protobuf message of the built-in Kubernetes 1.33 API. A message is');
  lines.push(' * [package index, name, special JSON kind, fields in Go declaration order]; a field is');
  lines.push(' * [number, JSON name, scalar type or message index, FieldFlag bits]. A kind is');
  lines.push(' * [group, version, kind, message index].');
  lines.push(' */');
  lines.push('export const protoTable: PackedTable = {');
  lines.push(`  packages: ${JSON.stringify(packages)},`);
  lines.push('  messages: [');
  for (const m of packed) lines.push(`    ${JSON.stringify(m)},`);
  lines.push('  ],');
  lines.push('  kinds: [');
  for (const k of kinds) lines.push(`    ${JSON.stringify(k)},`);
  lines.push('  ],');
  lines.push('};');
  lines.push('');
  return lines.join('\n');
}

async function main(): Promise<void> {
  const fields = JSON.parse(await readFile(fieldsInput, 'utf8')) as { messages: RawMessage[] };
  const swagger = JSON.parse(await readFile(swaggerInput, 'utf8')) as { definitions: Record<string, SchemaDef> };
  const { packages, packed, kinds, warnings } = build(fields.messages, swagger.definitions);
  if (process.argv.includes('--verbose')) for (const w of warnings) process.stderr.write(`gen-proto: ${w}\n`);
  const text = render(packages, packed, kinds);
  if (process.argv.includes('--check')) {
    const current = await readFile(output, 'utf8').catch(() => '');
    if (current !== text) {
      process.stderr.write(`${output} is stale: run \`node dist/hack/gen-proto.js\` and commit the result\n`);
      process.exit(1);
    }
    return;
  }
  await writeFile(output, text);
}

main().catch((err: unknown) => {
  process.stderr.write(`gen-proto: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});

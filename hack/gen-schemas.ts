/**
 * Generates api/gen/schemas.ts from hack/api-data/openapi/v2/swagger.json (the Kubernetes 1.33
 * OpenAPI v2 document): per definition the Go type, its properties as compact type expressions with
 * their x-kubernetes list/map extensions, and its required list; and the definition of every kind
 * named by x-kubernetes-group-version-kind. internal/validation/schema reads it to emulate kube's
 * typed decoding and schema checks. `--check` regenerates in memory and fails when the committed
 * file differs.
 *
 * Type expressions: `s` string, `b` bool, `i32`/`i64` integers, `f64` double, `byte` base64 []byte,
 * `any` free-form JSON, `@<name>` a definition, `[]<expr>` an array, `{}<expr>` a map.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface RawSchema {
  type?: string;
  format?: string;
  $ref?: string;
  items?: RawSchema;
  additionalProperties?: RawSchema | boolean;
  properties?: Record<string, RawSchema>;
  required?: string[];
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-group-version-kind'?: { group: string; version: string; kind: string }[];
}

interface OutProperty {
  t: string;
  g?: string;
  lt?: string;
  lk?: string[];
  mt?: string;
  pu?: 1;
}

interface OutDefinition {
  g: string;
  k?: string;
  p?: Record<string, string | OutProperty>;
  r?: string[];
  mt?: string;
  pu?: 1;
}

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const input = join(root, 'hack', 'api-data', 'openapi', 'v2', 'swagger.json');
const output = join(root, 'api', 'gen', 'schemas.ts');

const prefix = 'io.k8s.';

/** Definitions whose Go type has its own UnmarshalJSON: the runtime emulates each by kind. */
const customKinds: Readonly<Record<string, string>> = {
  'io.k8s.apimachinery.pkg.api.resource.Quantity': 'quantity',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Time': 'time',
  'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime': 'microtime',
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': 'intOrString',
  'io.k8s.apimachinery.pkg.runtime.RawExtension': 'any',
  'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1': 'any',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Patch': 'any',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON': 'any',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool': 'schemaOrBool',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray': 'schemaOrArray',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray': 'schemaOrStringArray',
};

/** Definitions that are Go structs without fields (`struct{}`): every key in them is unknown. */
const emptyStructs = new Set([
  'io.k8s.api.apiserverinternal.v1alpha1.StorageVersionSpec',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceSubresourceStatus',
]);

/**
 * Go named types the OpenAPI cannot show, keyed `<definition>.<property>`; they only change the
 * `of type ...` part of a decode error. Map-of-Quantity fields of core/v1 and node/v1 are
 * v1.ResourceList and are added by rule below.
 */
const goTypeOverrides: Readonly<Record<string, string>> = {
  // k8s.io/api and apimachinery v0.33 types.go: the named types of the most written fields.
  'io.k8s.api.core.v1.Container.imagePullPolicy': 'v1.PullPolicy',
  'io.k8s.api.core.v1.Container.terminationMessagePolicy': 'v1.TerminationMessagePolicy',
  'io.k8s.api.core.v1.Container.restartPolicy': 'v1.ContainerRestartPolicy',
  'io.k8s.api.core.v1.EphemeralContainer.imagePullPolicy': 'v1.PullPolicy',
  'io.k8s.api.core.v1.EphemeralContainer.terminationMessagePolicy': 'v1.TerminationMessagePolicy',
  'io.k8s.api.core.v1.ContainerPort.protocol': 'v1.Protocol',
  'io.k8s.api.core.v1.ServicePort.protocol': 'v1.Protocol',
  'io.k8s.api.core.v1.EndpointPort.protocol': 'v1.Protocol',
  'io.k8s.api.core.v1.Capabilities.add': '[]v1.Capability',
  'io.k8s.api.core.v1.Capabilities.drop': '[]v1.Capability',
  'io.k8s.api.core.v1.VolumeMount.mountPropagation': 'v1.MountPropagationMode',
  'io.k8s.api.core.v1.HTTPGetAction.scheme': 'v1.URIScheme',
  'io.k8s.api.core.v1.HostPathVolumeSource.type': 'v1.HostPathType',
  'io.k8s.api.core.v1.PodSpec.restartPolicy': 'v1.RestartPolicy',
  'io.k8s.api.core.v1.PodSpec.dnsPolicy': 'v1.DNSPolicy',
  'io.k8s.api.core.v1.PodSpec.preemptionPolicy': 'v1.PreemptionPolicy',
  'io.k8s.api.core.v1.PodStatus.phase': 'v1.PodPhase',
  'io.k8s.api.core.v1.PodCondition.type': 'v1.PodConditionType',
  'io.k8s.api.core.v1.PodCondition.status': 'v1.ConditionStatus',
  'io.k8s.api.core.v1.NodeCondition.type': 'v1.NodeConditionType',
  'io.k8s.api.core.v1.NodeCondition.status': 'v1.ConditionStatus',
  'io.k8s.api.core.v1.NodeAddress.type': 'v1.NodeAddressType',
  'io.k8s.api.core.v1.NodeSelectorRequirement.operator': 'v1.NodeSelectorOperator',
  'io.k8s.api.core.v1.Taint.effect': 'v1.TaintEffect',
  'io.k8s.api.core.v1.Toleration.effect': 'v1.TaintEffect',
  'io.k8s.api.core.v1.Toleration.operator': 'v1.TolerationOperator',
  'io.k8s.api.core.v1.Secret.type': 'v1.SecretType',
  'io.k8s.api.core.v1.ServiceSpec.type': 'v1.ServiceType',
  'io.k8s.api.core.v1.ServiceSpec.sessionAffinity': 'v1.ServiceAffinity',
  'io.k8s.api.core.v1.ServiceSpec.externalTrafficPolicy': 'v1.ServiceExternalTrafficPolicy',
  'io.k8s.api.core.v1.NamespaceSpec.finalizers': '[]v1.FinalizerName',
  'io.k8s.api.core.v1.PersistentVolumeClaimSpec.accessModes': '[]v1.PersistentVolumeAccessMode',
  'io.k8s.api.core.v1.PersistentVolumeClaimSpec.volumeMode': 'v1.PersistentVolumeMode',
  'io.k8s.api.core.v1.PersistentVolumeSpec.accessModes': '[]v1.PersistentVolumeAccessMode',
  'io.k8s.api.core.v1.PersistentVolumeSpec.persistentVolumeReclaimPolicy': 'v1.PersistentVolumeReclaimPolicy',
  'io.k8s.api.apps.v1.DeploymentStrategy.type': 'v1.DeploymentStrategyType',
  'io.k8s.api.apps.v1.StatefulSetSpec.podManagementPolicy': 'v1.PodManagementPolicyType',
  'io.k8s.api.apps.v1.StatefulSetUpdateStrategy.type': 'v1.StatefulSetUpdateStrategyType',
  'io.k8s.api.apps.v1.DaemonSetUpdateStrategy.type': 'v1.DaemonSetUpdateStrategyType',
  'io.k8s.api.batch.v1.CronJobSpec.concurrencyPolicy': 'v1.ConcurrencyPolicy',
  'io.k8s.api.batch.v1.JobSpec.completionMode': 'v1.CompletionMode',
  'io.k8s.api.batch.v1.JobSpec.podReplacementPolicy': 'v1.PodReplacementPolicy',
  'io.k8s.api.batch.v1.PodFailurePolicyRule.action': 'v1.PodFailurePolicyAction',
  'io.k8s.api.batch.v1.PodFailurePolicyOnExitCodesRequirement.operator': 'v1.PodFailurePolicyOnExitCodesOperator',
  'io.k8s.api.autoscaling.v2.MetricSpec.type': 'v2.MetricSourceType',
  'io.k8s.api.autoscaling.v2.MetricTarget.type': 'v2.MetricTargetType',
  'io.k8s.api.autoscaling.v2.HPAScalingPolicy.type': 'v2.HPAScalingPolicyType',
  'io.k8s.api.autoscaling.v2.HPAScalingRules.selectPolicy': 'v2.ScalingPolicySelect',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta.uid': 'types.UID',
  'io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference.uid': 'types.UID',
  'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement.operator': 'v1.LabelSelectorOperator',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry.operation': 'v1.ManagedFieldsOperationType',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Condition.status': 'v1.ConditionStatus',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionSpec.scope': 'v1.ResourceScope',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps.definitions': 'v1.JSONSchemaDefinitions',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps.dependencies': 'v1.JSONSchemaDependencies',
};

function shortName(full: string): string {
  return full.startsWith(prefix) ? full.slice(prefix.length) : full;
}

/** The Go type as reflect.Type.String() prints it: `<package>.<Type>`. */
function goTypeName(full: string): string {
  const parts = full.split('.');
  return `${parts[parts.length - 2]}.${parts[parts.length - 1]}`;
}

function refName(ref: string): string {
  const m = /^#\/definitions\/(.+)$/.exec(ref);
  if (!m) throw new Error(`unsupported $ref ${ref}`);
  return m[1] as string;
}

function typeExpression(s: RawSchema, where: string, defs: Record<string, RawSchema>): string {
  if (s.$ref !== undefined) {
    const name = refName(s.$ref);
    if (!(name in defs)) throw new Error(`${where}: $ref to missing definition ${name}`);
    return `@${shortName(name)}`;
  }
  if (s['x-kubernetes-preserve-unknown-fields'] === true) return 'any';
  for (const key of Object.keys(s)) {
    if (key.startsWith('x-kubernetes-') && key !== 'x-kubernetes-list-type' && key !== 'x-kubernetes-list-map-keys'
      && key !== 'x-kubernetes-map-type' && key !== 'x-kubernetes-patch-merge-key' && key !== 'x-kubernetes-patch-strategy') {
      throw new Error(`${where}: unsupported extension ${key}`);
    }
  }
  switch (s.type) {
    case 'string':
      if (s.format === undefined) return 's';
      if (s.format === 'byte') return 'byte';
      throw new Error(`${where}: unsupported string format ${s.format}`);
    case 'boolean':
      return 'b';
    case 'integer':
      if (s.format === 'int32') return 'i32';
      if (s.format === 'int64') return 'i64';
      throw new Error(`${where}: unsupported integer format ${String(s.format)}`);
    case 'number':
      if (s.format === 'double') return 'f64';
      throw new Error(`${where}: unsupported number format ${String(s.format)}`);
    case 'array':
      if (!s.items) throw new Error(`${where}: array without items`);
      if (Object.keys(s.items).some((k) => k.startsWith('x-kubernetes-list'))) throw new Error(`${where}: list extensions on items`);
      return `[]${typeExpression(s.items, `${where}[]`, defs)}`;
    case 'object':
      if (s.properties) throw new Error(`${where}: inline object with properties`);
      if (s.additionalProperties === undefined || s.additionalProperties === true) return 'any';
      if (s.additionalProperties === false) throw new Error(`${where}: additionalProperties false`);
      return `{}${typeExpression(s.additionalProperties, `${where}{}`, defs)}`;
    case undefined:
      return 'any';
    default:
      throw new Error(`${where}: unsupported type ${s.type}`);
  }
}

function renderProperty(defName: string, propName: string, s: RawSchema, defs: Record<string, RawSchema>): string | OutProperty {
  const t = typeExpression(s, `${defName}.${propName}`, defs);
  const out: OutProperty = { t };
  const override = goTypeOverrides[`${defName}.${propName}`];
  if (override !== undefined) out.g = override;
  else if (/^io\.k8s\.api\.(core|node)\.v1\./.test(defName) && t === '{}@apimachinery.pkg.api.resource.Quantity') out.g = 'v1.ResourceList';
  const listType = s['x-kubernetes-list-type'];
  if (listType !== undefined) {
    // kube marks a few []byte and struct fields atomic; only arrays carry list semantics.
    if (t.startsWith('[]')) out.lt = listType;
    else if (listType !== 'atomic') throw new Error(`${defName}.${propName}: list-type ${listType} on a non-array`);
  }
  const keys = s['x-kubernetes-list-map-keys'];
  if (keys !== undefined) {
    if (listType !== 'map') throw new Error(`${defName}.${propName}: list-map-keys without list-type map`);
    out.lk = keys;
  }
  if (listType === 'map' && keys === undefined) throw new Error(`${defName}.${propName}: list-type map without keys`);
  if (s['x-kubernetes-map-type'] !== undefined) out.mt = s['x-kubernetes-map-type'];
  if (s['x-kubernetes-preserve-unknown-fields'] === true) out.pu = 1;
  return Object.keys(out).length === 1 ? t : out;
}

function renderDefinition(name: string, s: RawSchema, defs: Record<string, RawSchema>): OutDefinition {
  const out: OutDefinition = { g: goTypeName(name) };
  const custom = customKinds[name];
  if (custom !== undefined) {
    out.k = custom;
    return out;
  }
  if (s.properties) {
    out.p = {};
    for (const prop of Object.keys(s.properties).sort()) {
      out.p[prop] = renderProperty(name, prop, s.properties[prop] as RawSchema, defs);
    }
    if (s.required && s.required.length > 0) {
      for (const r of s.required) if (!(r in s.properties)) throw new Error(`${name}: required ${r} is not a property`);
      out.r = [...s.required];
    }
  } else if (emptyStructs.has(name)) {
    out.p = {};
  } else {
    // A definition without properties must be known above: anything else is a new shape to handle.
    throw new Error(`${name}: definition without properties is neither a known custom type nor an empty struct`);
  }
  if (s['x-kubernetes-map-type'] !== undefined) out.mt = s['x-kubernetes-map-type'];
  if (s['x-kubernetes-preserve-unknown-fields'] === true) out.pu = 1;
  return out;
}

function render(defs: Record<string, RawSchema>): string {
  for (const key of Object.keys(goTypeOverrides)) {
    const dot = key.lastIndexOf('.');
    if (defs[key.slice(0, dot)]?.properties?.[key.slice(dot + 1)] === undefined) throw new Error(`Go type override for missing field ${key}`);
  }
  const names = Object.keys(defs).sort();
  const kinds = new Map<string, string>();
  for (const name of names) {
    for (const gvk of defs[name]?.['x-kubernetes-group-version-kind'] ?? []) {
      const key = `${gvk.group === '' ? '' : `${gvk.group}/`}${gvk.version}/${gvk.kind}`;
      const existing = kinds.get(key);
      if (existing !== undefined && existing !== name) throw new Error(`${key} names both ${existing} and ${name}`);
      kinds.set(key, name);
    }
  }
  const lines: string[] = [];
  lines.push('// Code generated by hack/gen-schemas.ts from hack/api-data/openapi/v2/swagger.json. DO NOT EDIT.');
  lines.push('/* eslint-disable */');
  lines.push('');
  lines.push('/** A property with extensions; a bare string is a property that has only its type expression. */');
  lines.push('export interface GeneratedSchemaProperty {');
  lines.push('  /** Type expression: s, b, i32, i64, f64, byte, any, @<definition>, []<expr>, {}<expr>. */');
  lines.push('  readonly t: string;');
  lines.push('  /** The Go type when it is a named type the expression cannot show (e.g. v1.ResourceList). */');
  lines.push('  readonly g?: string;');
  lines.push('  /** x-kubernetes-list-type. */');
  lines.push('  readonly lt?: string;');
  lines.push('  /** x-kubernetes-list-map-keys. */');
  lines.push('  readonly lk?: readonly string[];');
  lines.push('  /** x-kubernetes-map-type. */');
  lines.push('  readonly mt?: string;');
  lines.push('  /** x-kubernetes-preserve-unknown-fields. */');
  lines.push('  readonly pu?: 1;');
  lines.push('}');
  lines.push('');
  lines.push('/** One OpenAPI definition, named without its `io.k8s.` prefix. */');
  lines.push('export interface GeneratedSchemaDefinition {');
  lines.push('  /** The Go type as reflect prints it, `<package>.<Type>`; the struct name is the part after the dot. */');
  lines.push('  readonly g: string;');
  lines.push('  /** A Go type with its own JSON decoding: quantity, time, microtime, intOrString, any, schemaOrBool, schemaOrArray, schemaOrStringArray. */');
  lines.push('  readonly k?: string;');
  lines.push('  /** The struct fields by JSON name (absent for custom kinds). */');
  lines.push('  readonly p?: Readonly<Record<string, string | GeneratedSchemaProperty>>;');
  lines.push('  /** The OpenAPI required list. */');
  lines.push('  readonly r?: readonly string[];');
  lines.push('  /** x-kubernetes-map-type of the struct. */');
  lines.push('  readonly mt?: string;');
  lines.push('  /** x-kubernetes-preserve-unknown-fields. */');
  lines.push('  readonly pu?: 1;');
  lines.push('}');
  lines.push('');
  lines.push('/** Every definition of the 1.33 OpenAPI v2 document. */');
  lines.push('export const schemaDefinitions: Readonly<Record<string, GeneratedSchemaDefinition>> = {');
  for (const name of names) {
    lines.push(`  ${JSON.stringify(shortName(name))}: ${JSON.stringify(renderDefinition(name, defs[name] as RawSchema, defs))},`);
  }
  lines.push('};');
  lines.push('');
  lines.push('/** The definition of every kind, keyed `<apiVersion>/<kind>` (`v1/Pod`, `apps/v1/Deployment`). */');
  lines.push('export const schemaKinds: Readonly<Record<string, string>> = {');
  for (const key of [...kinds.keys()].sort()) {
    lines.push(`  ${JSON.stringify(key)}: ${JSON.stringify(shortName(kinds.get(key) as string))},`);
  }
  lines.push('};');
  lines.push('');
  return lines.join('\n');
}

async function main(): Promise<void> {
  const doc = JSON.parse(await readFile(input, 'utf8')) as { definitions: Record<string, RawSchema> };
  const text = render(doc.definitions);
  if (process.argv.includes('--check')) {
    const current = await readFile(output, 'utf8').catch(() => '');
    if (current !== text) {
      process.stderr.write(`${output} is stale: run \`make generate\` and commit the result\n`);
      process.exit(1);
    }
    return;
  }
  await writeFile(output, text);
}

main().catch((err: unknown) => {
  process.stderr.write(`gen-schemas: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});

/**
 * The opaque CEL types of Kubernetes' libraries (kubernetes.URL, net.IP, net.CIDR,
 * kubernetes.Quantity, kubernetes.Semver, kubernetes.NamedFormat, the kubernetes.authorization
 * checks, optional_type) as small protobuf messages built at load time, so @bufbuild/cel dispatches
 * methods on them and type(x) names them as cel-go does. A value carries its state in string fields;
 * an optional's payload (any CEL value) lives in a side table keyed by the message.
 */
import { objectType, type CelObjectType, type CelValue } from '@bufbuild/cel';
import { create, createFileRegistry, type DescMessage } from '@bufbuild/protobuf';
import { reflect, type ReflectMessage } from '@bufbuild/protobuf/reflect';
import { FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';

const STRING = 9;
const MESSAGE = 11;
const OPTIONAL_LABEL = 1;

function field(name: string, number: number, typeName?: string) {
  return typeName
    ? { name, number, type: MESSAGE, label: OPTIONAL_LABEL, jsonName: name, typeName }
    : { name, number, type: STRING, label: OPTIONAL_LABEL, jsonName: name };
}

function messages(names: Record<string, string[]>) {
  return Object.entries(names).map(([name, fields]) => ({ name, field: fields.map((f, i) => field(f, i + 1)) }));
}

const files = [
  create(FileDescriptorProtoSchema, {
    name: 'k8s/cel/kubernetes.proto',
    package: 'kubernetes',
    syntax: 'proto3',
    messageType: messages({ URL: ['value'], Quantity: ['value'], Semver: ['value'], NamedFormat: ['value'] }),
  }),
  create(FileDescriptorProtoSchema, {
    name: 'k8s/cel/net.proto',
    package: 'net',
    syntax: 'proto3',
    messageType: messages({ IP: ['value'], CIDR: ['value'] }),
  }),
  create(FileDescriptorProtoSchema, {
    name: 'k8s/cel/authorization.proto',
    package: 'kubernetes.authorization',
    syntax: 'proto3',
    messageType: [
      ...messages({
        PathCheck: ['principal', 'path'],
        GroupCheck: ['principal', 'group'],
        ResourceCheck: ['principal', 'group', 'resource', 'subresource', 'namespace', 'name', 'fieldSelector', 'labelSelector'],
        Decision: ['decision', 'reason', 'error'],
      }),
      { name: 'Authorizer', field: [field('principal', 1), field('requestResource', 2, '.kubernetes.authorization.ResourceCheck')] },
    ],
  }),
  create(FileDescriptorProtoSchema, { name: 'k8s/cel/optional.proto', package: '', syntax: 'proto3', messageType: messages({ optional_type: ['state'] }) }),
];

/** The registry holding every Kubernetes CEL message type (given to the environment). */
export const kubeTypeRegistry = createFileRegistry(...files.map((f) => createFileRegistry(f, () => undefined)));

function desc(name: string): DescMessage {
  const d = kubeTypeRegistry.getMessage(name);
  if (!d) throw new Error(`missing CEL type ${name}`);
  return d;
}

/** Descriptors by kube's CEL type name. */
export const KubeDesc = {
  URL: desc('kubernetes.URL'),
  Quantity: desc('kubernetes.Quantity'),
  Semver: desc('kubernetes.Semver'),
  Format: desc('kubernetes.NamedFormat'),
  IP: desc('net.IP'),
  CIDR: desc('net.CIDR'),
  Authorizer: desc('kubernetes.authorization.Authorizer'),
  PathCheck: desc('kubernetes.authorization.PathCheck'),
  GroupCheck: desc('kubernetes.authorization.GroupCheck'),
  ResourceCheck: desc('kubernetes.authorization.ResourceCheck'),
  Decision: desc('kubernetes.authorization.Decision'),
  Optional: desc('optional_type'),
} as const;

/** The CEL types of KubeDesc. */
export const KubeType = Object.fromEntries(Object.entries(KubeDesc).map(([k, d]) => [k, objectType(d)])) as Record<keyof typeof KubeDesc, CelObjectType>;

/** A new value of one of the types, with its string fields. */
export function kubeValue(d: DescMessage, fields: Record<string, string | ReflectMessage> = {}): ReflectMessage {
  const init: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) init[k] = typeof v === 'string' ? v : v.message;
  return reflect(d, create(d, init as never));
}

/** A string field of a value made by kubeValue. */
export function fieldOf(v: unknown, name: string): string {
  const msg = (v as ReflectMessage).message as unknown as Record<string, unknown>;
  const value = msg[name];
  return typeof value === 'string' ? value : '';
}

/** The single string a URL, IP, CIDR, Quantity, Semver or NamedFormat value carries. */
export function textOf(v: unknown): string {
  return fieldOf(v, 'value');
}

const payloads = new WeakMap<object, CelValue | undefined>();
let distinct = 0;

/** The state field that makes == on optionals compare their payloads: none, a scalar's typed text, or a unique token for other values. */
function stateOf(value: CelValue | undefined): string {
  if (value === undefined) return 'none';
  switch (typeof value) {
    case 'bigint':
      return `int:${value}`;
    case 'number':
      return `double:${value}`;
    case 'string':
      return `string:${value}`;
    case 'boolean':
      return `bool:${value}`;
    default:
      return value === null ? 'null' : `value:${++distinct}`;
  }
}

/** optional.of(value) / optional.none() (value undefined). */
export function optionalValue(value: CelValue | undefined): ReflectMessage {
  const m = kubeValue(KubeDesc.Optional, { state: stateOf(value) });
  payloads.set(m.message, value);
  return m;
}

/** The payload of an optional; undefined for none. */
export function optionalPayload(v: unknown): CelValue | undefined {
  return payloads.get((v as ReflectMessage).message);
}

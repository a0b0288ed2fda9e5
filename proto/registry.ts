/**
 * The message registry: unpacks the generated table (proto/gen/messages.ts) into MessageSpecs on
 * first use, and maps group/version/kind to message full names and back.
 */
import { protoTable } from './gen/messages.js';
import { ProtobufError } from './errors.js';
import { FieldFlag, type FieldSpec, type GroupVersionKind, type MessageSpec, type ScalarType } from './types.js';

let specs: Map<string, MessageSpec> | undefined;
let kindIndex: Map<string, string> | undefined;
let messageKinds: Map<string, GroupVersionKind[]> | undefined;

function fullNameAt(i: number): string {
  const m = protoTable.messages[i];
  if (!m) throw new Error(`proto table: no message at index ${i}`);
  return `${protoTable.packages[m[0]]}.${m[1]}`;
}

function unpack(): Map<string, MessageSpec> {
  const out = new Map<string, MessageSpec>();
  for (let i = 0; i < protoTable.messages.length; i++) {
    const [, , special, packedFields] = protoTable.messages[i]!;
    const fields: FieldSpec[] = packedFields.map(([number, jsonName, type, flags]) => ({
      number,
      jsonName,
      ...(typeof type === 'number' ? { message: fullNameAt(type) } : { scalar: type as ScalarType }),
      repeated: (flags & FieldFlag.repeated) !== 0,
      map: (flags & FieldFlag.map) !== 0,
      inline: (flags & FieldFlag.inline) !== 0,
      value: (flags & FieldFlag.value) !== 0,
      omitEmpty: (flags & FieldFlag.omitEmpty) !== 0,
      pointer: (flags & FieldFlag.pointer) !== 0,
    }));
    const fullName = fullNameAt(i);
    out.set(fullName, {
      fullName,
      special,
      fields,
      wireOrder: [...fields].sort((a, b) => a.number - b.number),
      byNumber: new Map(fields.map((f) => [f.number, f])),
    });
  }
  return out;
}

/** The spec of a message by its full name (e.g. `k8s.io.api.core.v1.ConfigMap`); throws ProtobufError when unknown. */
export function messageSpec(fullName: string): MessageSpec {
  specs ??= unpack();
  const spec = specs.get(fullName);
  if (!spec) throw new ProtobufError('UnknownMessage', `unknown protobuf message ${fullName}`);
  return spec;
}

/** Whether a message full name is in the table. */
export function hasMessage(fullName: string): boolean {
  specs ??= unpack();
  return specs.has(fullName);
}

const gvkKey = (group: string, version: string, kind: string) => `${group}/${version}/${kind}`;

/** Splits an apiVersion ("v1", "apps/v1") into group and version. */
export function parseApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/** The message full name for a top-level kind, or undefined when the kind has no protobuf message. */
export function messageForKind(group: string, version: string, kind: string): string | undefined {
  if (!kindIndex) {
    kindIndex = new Map();
    for (const [g, v, k, i] of protoTable.kinds) kindIndex.set(gvkKey(g, v, k), fullNameAt(i));
  }
  return kindIndex.get(gvkKey(group, version, kind));
}

/** Every group/version/kind that a message is registered as (several for DeleteOptions and WatchEvent). */
export function kindsOfMessage(fullName: string): readonly GroupVersionKind[] {
  if (!messageKinds) {
    messageKinds = new Map();
    for (const [group, version, kind, i] of protoTable.kinds) {
      const name = fullNameAt(i);
      const list = messageKinds.get(name) ?? [];
      list.push({ group, version, kind });
      messageKinds.set(name, list);
    }
  }
  return messageKinds.get(fullName) ?? [];
}

/** Every top-level kind in the table. */
export function allKinds(): readonly (GroupVersionKind & { message: string })[] {
  return protoTable.kinds.map(([group, version, kind, i]) => ({ group, version, kind, message: fullNameAt(i) }));
}

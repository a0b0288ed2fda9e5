/**
 * The CEL type of a schema node, as kube's SchemaDeclType makes it: objects with their declared
 * (escaped) fields, maps from additionalProperties, lists, strings (bytes, duration and timestamps
 * for the byte, duration, date and date-time formats), int, double, bool, and dyn for
 * x-kubernetes-int-or-string. The root of a resource and embedded resources also see apiVersion,
 * kind and metadata.name/generateName. Every string, list and map carries its largest size: the
 * schema's maxLength (times 4: bytes per rune), maxItems or maxProperties, else kube's estimate of
 * what fits in a 3 MiB request.
 */
import type { JSONSchemaProps } from '../interface.js';
import type { DeclType } from './interface.js';

/** kube's request size limit the estimates start from (DefaultMaxRequestSizeBytes). */
export const maxRequestSizeBytes = 3 * 1024 * 1024;
// Largest and smallest JSON texts of formatted strings (apiserver/pkg/cel limits).
const maxDurationSizeJSON = 32;
const minDurationSizeJSON = 3;
const jsonDateSize = 12;
const maxDatetimeSizeJSON = 32;
const minDatetimeSizeJSON = 21;

const reserved = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);

/** kube's cel.Escape: the CEL field name of a property, or undefined when it has none. */
export function escapeFieldName(name: string): string | undefined {
  if (name.length === 0 || /^[0-9]/.test(name)) return undefined;
  if (reserved.has(name)) return `__${name}__`;
  if (!/^[a-zA-Z_.\-/][a-zA-Z0-9_.\-/]*$/.test(name)) return undefined;
  return name.replace(/__|[-./]/g, (m) => ({ __: '__underscores__', '.': '__dot__', '-': '__dash__', '/': '__slash__' })[m]!);
}

const stringType = (maxSize: number): DeclType => ({ kind: 'string', maxSize, minSerializedSize: 2 });

/** The type and object metadata every resource root shows to rules. */
function withTypeAndObjectMeta(s: JSONSchemaProps): JSONSchemaProps {
  const metadata = s.properties?.metadata ?? {};
  return {
    ...s,
    properties: {
      ...s.properties,
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { ...metadata, type: 'object', properties: { ...metadata.properties, name: { type: 'string' }, generateName: { type: 'string' } } },
    },
  };
}

function maxStringLength(s: JSONSchemaProps): number {
  if (s.maxLength !== undefined) return Math.max(0, s.maxLength) * 4;
  if (s.enum && s.enum.length > 0) return Math.max(...s.enum.map((v) => (typeof v === 'string' ? v.length : 0)));
  switch (s.format) {
    case 'duration':
      return maxDurationSizeJSON;
    case 'date':
      return jsonDateSize;
    case 'date-time':
      return maxDatetimeSizeJSON;
    default:
      return maxRequestSizeBytes - 2;
  }
}

/** The CEL type of s (isResourceRoot: the root of a resource or an embedded resource); undefined where kube has none. */
export function schemaDeclType(s: JSONSchemaProps | undefined, isResourceRoot: boolean): DeclType | undefined {
  if (!s) return undefined;
  if (s['x-kubernetes-int-or-string']) return { kind: 'dyn', maxSize: maxRequestSizeBytes - 2, minSerializedSize: 1 };
  if (isResourceRoot) s = withTypeAndObjectMeta(s);
  switch (s.type) {
    case 'array': {
      const items = Array.isArray(s.items) ? undefined : (s.items as JSONSchemaProps | undefined);
      const elem = items ? schemaDeclType(items, items['x-kubernetes-embedded-resource'] === true) : undefined;
      if (!elem) return undefined;
      const maxSize = s.maxItems !== undefined ? Math.max(0, s.maxItems) : Math.floor((maxRequestSizeBytes - 2) / (elem.minSerializedSize + 1));
      const lt = s['x-kubernetes-list-type'];
      const listType = lt === 'set' || (lt === 'map' && (s['x-kubernetes-list-map-keys'] ?? []).length > 0) ? lt : undefined;
      return { kind: 'list', elem, maxSize, minSerializedSize: 2, listType, mapKeys: listType === 'map' ? s['x-kubernetes-list-map-keys'] : undefined };
    }
    case 'object': {
      const ap = s.additionalProperties;
      if (ap && typeof ap === 'object') {
        const elem = schemaDeclType(ap, ap['x-kubernetes-embedded-resource'] === true);
        if (!elem) return undefined;
        const maxSize = s.maxProperties !== undefined ? Math.max(0, s.maxProperties) : Math.floor((maxRequestSizeBytes - 2) / (elem.minSerializedSize + 6));
        return { kind: 'map', elem, maxSize, minSerializedSize: 2 };
      }
      const open = s['x-kubernetes-preserve-unknown-fields'] === true;
      if (open && !s.properties) return { kind: 'dyn', maxSize: maxRequestSizeBytes - 2, minSerializedSize: 2, open: true };
      const fields = new Map<string, DeclType>();
      const props = new Map<string, DeclType>();
      const required = new Set(s.required ?? []);
      let minSerializedSize = 2;
      for (const [name, prop] of Object.entries(s.properties ?? {})) {
        let t = schemaDeclType(prop, prop['x-kubernetes-embedded-resource'] === true);
        if (!t) continue;
        if (isResourceRoot && name === 'metadata') t = { ...t, metadataOnly: true };
        props.set(name, t);
        const escaped = escapeFieldName(name);
        if (escaped !== undefined) fields.set(escaped, t);
        if (required.has(name) && prop.default === undefined) minSerializedSize += name.length + t.minSerializedSize + 4;
      }
      return { kind: 'object', fields, props, open, maxSize: 0, minSerializedSize };
    }
    case 'string':
      switch (s.format) {
        case 'byte':
          return { kind: 'bytes', format: 'byte', maxSize: s.maxLength !== undefined ? Math.max(0, s.maxLength) : maxStringLength(s), minSerializedSize: 2 };
        case 'duration':
          return { kind: 'duration', format: 'duration', maxSize: maxStringLength(s), minSerializedSize: minDurationSizeJSON };
        case 'date':
        case 'date-time':
          return { kind: 'timestamp', format: s.format, maxSize: maxStringLength(s), minSerializedSize: s.format === 'date' ? jsonDateSize : minDatetimeSizeJSON };
        default:
          return stringType(maxStringLength(s));
      }
    case 'boolean':
      return { kind: 'bool', maxSize: 0, minSerializedSize: 4 };
    case 'number':
      return { kind: 'double', maxSize: 0, minSerializedSize: 1 };
    case 'integer':
      return { kind: 'int', maxSize: 0, minSerializedSize: 1 };
    default:
      return undefined;
  }
}

/**
 * Decodes an audit policy file's bytes as kube's policy.LoadPolicyFromBytes does: YAML or JSON,
 * only audit.k8s.io/v1 Policy (v1alpha1 and v1beta1 are gone since 1.24), strictly first; unknown
 * fields are a strict-decoding error, which kube answers by warning and decoding again leniently
 * (unknown fields ignored). Wrong types, a missing or unknown apiVersion/kind and unparseable text
 * are errors. Go's JSON error texts are approximated (same shape, same type names).
 */
import { parse as parseYaml } from 'yaml';
import type { AuditPolicy, GroupResources, PolicyRule } from './types.js';

/** The scheme kube names in "no kind ... is registered" errors. */
const schemeName = 'k8s.io/apiserver/pkg/audit/scheme.go:30';

type Spec = 'string' | 'bool' | 'object' | { readonly list: Spec; readonly goType: string } | { readonly struct: string; readonly fields: Readonly<Record<string, Spec>>; readonly goTypes: Readonly<Record<string, string>> };

const stringList: Spec = { list: 'string', goType: '[]string' };
const stageList: Spec = { list: 'string', goType: '[]v1.Stage' };
const groupResourcesSpec: Spec = {
  struct: 'GroupResources',
  fields: { group: 'string', resources: stringList, resourceNames: stringList },
  goTypes: { group: 'string' },
};
const ruleSpec: Spec = {
  struct: 'PolicyRule',
  fields: {
    level: 'string',
    users: stringList,
    userGroups: stringList,
    verbs: stringList,
    resources: { list: groupResourcesSpec, goType: '[]v1.GroupResources' },
    namespaces: stringList,
    nonResourceURLs: stringList,
    omitStages: stageList,
    omitManagedFields: 'bool',
  },
  goTypes: { level: 'v1.Level', omitManagedFields: 'bool' },
};
const policySpec: Spec = {
  struct: 'Policy',
  fields: {
    kind: 'string',
    apiVersion: 'string',
    metadata: 'object',
    rules: { list: ruleSpec, goType: '[]v1.PolicyRule' },
    omitStages: stageList,
    omitManagedFields: 'bool',
  },
  goTypes: { kind: 'string', apiVersion: 'string', metadata: 'v1.ObjectMeta', omitManagedFields: 'bool' },
};

function jsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

/**
 * Checks value against spec as Go's decoder would: a wrong type throws (Go's UnmarshalTypeError
 * text), unknown fields are collected (with kube's strict-error paths, "rules[0].levl").
 */
function check(value: unknown, spec: Spec, struct: string, goPath: string, path: string, goType: string, unknown: string[]): void {
  if (value === null || value === undefined) return;
  const mismatch = (): Error => new Error(`json: cannot unmarshal ${jsonType(value)} into Go struct field ${struct}.${goPath} of type ${goType}`);
  if (spec === 'string') {
    if (typeof value !== 'string') throw mismatch();
  } else if (spec === 'bool') {
    if (typeof value !== 'boolean') throw mismatch();
  } else if (spec === 'object') {
    if (typeof value !== 'object' || Array.isArray(value)) throw mismatch();
  } else if ('list' in spec) {
    if (!Array.isArray(value)) throw mismatch();
    // An element's type is the list's without its "[]".
    value.forEach((item, i) => check(item, spec.list, struct, goPath, `${path}[${i}]`, spec.goType.slice(2), unknown));
  } else {
    if (typeof value !== 'object' || Array.isArray(value)) throw mismatch();
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      const child = spec.fields[k];
      const childPath = path ? `${path}.${k}` : k;
      if (child === undefined) {
        unknown.push(childPath);
        continue;
      }
      const childType = spec.goTypes[k] ?? (typeof child === 'object' && 'list' in child ? child.goType : 'string');
      check(v, child, spec.struct, goPath ? `${goPath}.${k}` : k, childPath, childType, unknown);
    }
  }
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.map((s) => (typeof s === 'string' ? s : '')) : [];
}

function groupResources(v: unknown): GroupResources {
  const r = (v ?? {}) as Record<string, unknown>;
  return { group: typeof r.group === 'string' ? r.group : '', resources: strings(r.resources), resourceNames: strings(r.resourceNames) };
}

function rule(v: unknown): PolicyRule {
  const r = (v ?? {}) as Record<string, unknown>;
  return {
    level: typeof r.level === 'string' ? r.level : '',
    users: strings(r.users),
    userGroups: strings(r.userGroups),
    verbs: strings(r.verbs),
    resources: Array.isArray(r.resources) ? r.resources.map(groupResources) : [],
    namespaces: strings(r.namespaces),
    nonResourceURLs: strings(r.nonResourceURLs),
    omitStages: strings(r.omitStages),
    ...(typeof r.omitManagedFields === 'boolean' ? { omitManagedFields: r.omitManagedFields } : {}),
  };
}

/** What decoding found besides the policy: the strict-decoding error kube logs as a warning. */
export interface DecodedPolicy {
  readonly policy: AuditPolicy;
  /** Set when strict decoding failed (unknown fields) and the policy was decoded leniently. */
  readonly strictError?: string;
}

/** Decodes a policy file's text; throws Error("failed decoding: ...") as kube's decoder fails. */
export function decodePolicy(text: string): DecodedPolicy {
  let doc: unknown;
  try {
    doc = parseYaml(text, { uniqueKeys: false });
  } catch (err) {
    throw new Error(`failed decoding: error converting YAML to JSON: yaml: ${(err as Error).message.split('\n')[0]}`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    throw new Error(
      `failed decoding: couldn't get version/kind; json parse error: json: cannot unmarshal ${doc === null || doc === undefined ? 'null' : jsonType(doc)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
    );
  }
  const raw = doc as Record<string, unknown>;
  const kind = typeof raw.kind === 'string' ? raw.kind : '';
  const apiVersion = typeof raw.apiVersion === 'string' ? raw.apiVersion : '';
  if (kind === '') throw new Error(`failed decoding: Object 'Kind' is missing in '${text}'`);
  if (apiVersion === '') throw new Error(`failed decoding: Object 'apiVersion' is missing in '${text}'`);
  if (apiVersion !== 'audit.k8s.io/v1' || kind !== 'Policy') {
    throw new Error(`failed decoding: no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)} in scheme ${JSON.stringify(schemeName)}`);
  }
  const unknown: string[] = [];
  try {
    check(doc, policySpec, 'Policy', '', '', 'v1.Policy', unknown);
  } catch (err) {
    throw new Error(`failed decoding: ${(err as Error).message}`);
  }
  const policy: AuditPolicy = {
    rules: Array.isArray(raw.rules) ? raw.rules.map(rule) : [],
    omitStages: strings(raw.omitStages),
    omitManagedFields: raw.omitManagedFields === true,
  };
  if (unknown.length === 0) return { policy };
  return { policy, strictError: `strict decoding error: ${unknown.map((f) => `unknown field ${JSON.stringify(f)}`).join(', ')}` };
}

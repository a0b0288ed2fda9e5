/**
 * ABAC policy files (--authorization-policy-file), read as kube's abac.NewFromFile reads them: one
 * JSON object per line; blank lines and lines starting with "#" are skipped. A line is either an
 * abac.authorization.kubernetes.io/v1beta1 Policy ({"apiVersion", "kind": "Policy", "spec": {...}})
 * or the legacy unversioned form (the v0 fields at the top level), which is converted with kube's
 * v0 rules. Any bad line fails the whole file with its line number, in kube's wording.
 */
import { readFile } from 'node:fs/promises';

/** The group every authenticated user has (user.AllAuthenticated). */
const allAuthenticated = 'system:authenticated';
const group = 'abac.authorization.kubernetes.io';
/** bufio.Scanner's longest line. */
const maxLineBytes = 64 * 1024;

/** One policy, in kube's internal form (every field present; "" means unset). */
export interface AbacPolicy {
  /** A user name, or "*" for every user. */
  readonly user: string;
  /** A group name, or "*" for every group. */
  readonly group: string;
  /** When true, only get, list and watch match. */
  readonly readonly: boolean;
  /** An API group, or "*". */
  readonly apiGroup: string;
  /** A resource (subresources are covered by their resource), or "*". */
  readonly resource: string;
  /** A namespace, or "*" (which also covers cluster-scoped requests). */
  readonly namespace: string;
  /** A non-resource path, "*", or a prefix ending in "*". */
  readonly nonResourcePath: string;
}

type Json = Record<string, unknown>;

const v1beta1Fields = {
  user: 'string',
  group: 'string',
  readonly: 'boolean',
  apiGroup: 'string',
  resource: 'string',
  namespace: 'string',
  nonResourcePath: 'string',
} as const satisfies Record<keyof AbacPolicy, 'string' | 'boolean'>;
const v0Fields = { user: 'string', group: 'string', readonly: 'boolean', resource: 'string', namespace: 'string' } as const;

function typed<T extends Record<string, 'string' | 'boolean'>>(obj: Json, fields: T, where: string): { [K in keyof T]: T[K] extends 'boolean' ? boolean : string } {
  const out: Record<string, unknown> = {};
  for (const [name, type] of Object.entries(fields)) {
    const v = obj[name];
    if (v === undefined || v === null) {
      out[name] = type === 'boolean' ? false : '';
      continue;
    }
    if (typeof v !== type) {
      const got = Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v === 'boolean' ? 'bool' : typeof v;
      throw new Error(`json: cannot unmarshal ${got} into Go struct field ${where}.${name} of type ${type === 'boolean' ? 'bool' : 'string'}`);
    }
    out[name] = v;
  }
  return out as { [K in keyof T]: T[K] extends 'boolean' ? boolean : string };
}

/** kube's v0 -> internal conversion: empty subject means every authenticated user, empty scope means everything. */
function fromV0(obj: Json): AbacPolicy {
  const v = typed(obj, v0Fields, 'Policy');
  const everyone = v.user === '*' || v.group === '*';
  return {
    user: everyone ? '' : v.user,
    group: everyone || (v.user === '' && v.group === '') ? allAuthenticated : v.group,
    readonly: v.readonly,
    apiGroup: '*',
    resource: v.resource === '' ? '*' : v.resource,
    namespace: v.namespace === '' ? '*' : v.namespace,
    nonResourcePath: v.namespace === '' && v.resource === '' ? '*' : '',
  };
}

/** kube's v1beta1 -> internal conversion: a "*" user or group means every authenticated user. */
function fromV1beta1(obj: Json): AbacPolicy {
  const rawSpec = obj.spec ?? {};
  if (typeof rawSpec !== 'object' || rawSpec === null || Array.isArray(rawSpec)) {
    throw new Error(`json: cannot unmarshal ${Array.isArray(rawSpec) ? 'array' : typeof rawSpec} into Go struct field Policy.spec of type v1beta1.PolicySpec`);
  }
  const spec = typed(rawSpec as Json, v1beta1Fields, 'Policy.spec');
  if (spec.user === '*' || spec.group === '*') return { ...spec, user: '', group: allAuthenticated };
  return spec;
}

/** Decodes one policy line; throws with kube's decoder message. */
export function parsePolicyLine(line: string): AbacPolicy {
  let obj: unknown;
  try {
    obj = JSON.parse(line);
  } catch (err) {
    throw new Error(`couldn't get version/kind; json parse error: ${(err as Error).message}`);
  }
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) {
    throw new Error(`couldn't get version/kind; json parse error: json: cannot unmarshal ${Array.isArray(obj) ? 'array' : typeof obj} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`);
  }
  const o = obj as Json;
  const apiVersion = typeof o.apiVersion === 'string' ? o.apiVersion : '';
  const kind = typeof o.kind === 'string' ? o.kind : '';
  // Without a version or a kind the line is the legacy unversioned format.
  if (apiVersion === '' || kind === '') return fromV0(o);
  if (kind === 'Policy' && apiVersion === `${group}/v1beta1`) return fromV1beta1(o);
  if (kind === 'Policy' && apiVersion === `${group}/v0`) return fromV0(o);
  throw new Error(`no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)} in scheme "pkg/apis/abac/register.go"`);
}

/** Parses a whole policy file's text; path only names it in errors. */
export function parsePolicyFile(path: string, text: string): AbacPolicy[] {
  const policies: AbacPolicy[] = [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).replace(/\r$/, '');
    if (Buffer.byteLength(line) > maxLineBytes) throw new Error(`error reading policy file ${path}: bufio.Scanner: token too long`);
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    try {
      policies.push(parsePolicyLine(line));
    } catch (err) {
      throw new Error(`error reading policy file ${path}, line ${i + 1}: ${line}: ${(err as Error).message}`);
    }
  }
  return policies;
}

/** Reads and parses --authorization-policy-file; rejects with kube's message (the server refuses to start). */
export async function loadPolicyFile(path: string): Promise<AbacPolicy[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const why = e.code === 'ENOENT' ? 'no such file or directory' : e.code === 'EACCES' ? 'permission denied' : e.code === 'EISDIR' ? 'is a directory' : e.message;
    throw new Error(`open ${path}: ${why}`);
  }
  return parsePolicyFile(path, text);
}

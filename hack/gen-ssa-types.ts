/**
 * Generates api/gen/ssa-types.ts from the Kubernetes 1.33 OpenAPI v3 documents (api/gen/openapi/v3):
 * the structured-merge-diff type of every definition, built with the rules kube-apiserver's
 * typeconverter uses (k8s.io/kube-openapi pkg/schemaconv): `x-kubernetes-list-type` (else a patch
 * strategy `merge` with its merge key, else atomic) for lists, `x-kubernetes-map-type` for maps
 * and structs, free-form objects and preserve-unknown-fields as deduced maps, formats other than
 * byte as untyped scalars, Quantity as an untyped scalar. It also records per struct the fields a
 * Go zero value of the type serializes (what kube's `New()` object holds on create), the scalar
 * defaults (list keys default from them), and the definition of every kind. `--check` regenerates
 * in memory and fails when the committed file differs.
 *
 * Encoding: a type reference is `n`/`s`/`b`/`u` (numeric, string, boolean, untyped scalar),
 * `@<definition>` optionally followed by `!a` or `!s` (atomic or granular override), or an inline
 * atom. An atom has `s` (scalar), `l` (list: `e` element, `r: "as"` when associative, `k` keys) and
 * `m` (map: `f` fields, `e` element type, `r` `a`/`s`, `d` scalar defaults, `z` zero-value fields
 * where `@` means the zero value of the field's own type).
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface RawSchema {
  type?: string;
  format?: string;
  $ref?: string;
  allOf?: RawSchema[];
  items?: RawSchema;
  additionalProperties?: RawSchema | boolean;
  properties?: Record<string, RawSchema>;
  required?: string[];
  default?: unknown;
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-patch-strategy'?: string;
  'x-kubernetes-patch-merge-key'?: string;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-group-version-kind'?: { group: string; version: string; kind: string }[];
}

type Ref = string | Atom;
interface Atom {
  s?: string;
  l?: { e: Ref; r?: 'as'; k?: string[] };
  m?: { f?: Record<string, Ref>; e?: Ref; r?: 'a' | 's'; d?: Record<string, unknown>; z?: Record<string, unknown> };
}

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const inputDir = join(root, 'api', 'gen', 'openapi', 'v3');
const output = join(root, 'api', 'gen', 'ssa-types.ts');

const prefix = 'io.k8s.';
const quantity = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const rawExtension = 'io.k8s.apimachinery.pkg.runtime.RawExtension';
const deduced = '@__untyped_deduced_';
const untypedAtomic = '@__untyped_atomic_';

function shortName(name: string): string {
  return name.startsWith(prefix) ? name.slice(prefix.length) : name;
}

function refName(s: RawSchema): string | undefined {
  const ref = s.$ref ?? (s.allOf?.length === 1 ? s.allOf[0]!.$ref : undefined);
  return ref ? ref.slice(ref.lastIndexOf('/') + 1) : undefined;
}

function mapRelationship(s: RawSchema): 'a' | 's' | undefined {
  const t = s['x-kubernetes-map-type'];
  if (t === undefined) return undefined;
  if (t === 'atomic') return 'a';
  if (t === 'granular') return 's';
  throw new Error(`unknown map type ${t}`);
}

function listRelationship(s: RawSchema): { r?: 'as'; k?: string[] } {
  const lt = s['x-kubernetes-list-type'];
  if (lt !== undefined) {
    if (lt === 'atomic') return {};
    if (lt === 'set') return { r: 'as' };
    if (lt === 'map') {
      const keys = s['x-kubernetes-list-map-keys'];
      if (!keys) throw new Error('missing map keys');
      return { r: 'as', k: [...keys] };
    }
    throw new Error(`unknown list type ${lt}`);
  }
  const ps = s['x-kubernetes-patch-strategy'];
  if (ps !== undefined) {
    if (ps === 'merge' || ps === 'merge,retainKeys') {
      const key = s['x-kubernetes-patch-merge-key'];
      return key !== undefined ? { r: 'as', k: [key] } : { r: 'as' };
    }
    if (ps === 'retainKeys') return {};
    throw new Error(`unknown patch strategy ${ps}`);
  }
  return {};
}

function primitive(type: string, format: string | undefined): string {
  switch (type) {
    case 'integer':
    case 'number':
      return 'n';
    case 'boolean':
      return 'b';
    case 'string':
      return format === undefined || format === '' || format === 'byte' ? 's' : 'u';
    default:
      return 'u';
  }
}

function makeRef(s: RawSchema, preserveUnknown: boolean): Ref {
  const name = refName(s);
  if (name !== undefined) {
    const er = mapRelationship(s);
    return `@${shortName(name)}${er ? `!${er}` : ''}`;
  }
  const atom = parseSchema(s, preserveUnknown || s['x-kubernetes-preserve-unknown-fields'] === true);
  if (atom.s && !atom.l && !atom.m) return atom.s;
  return atom;
}

function parseObject(s: RawSchema, preserveUnknown: boolean): NonNullable<Atom['m']> {
  const m: NonNullable<Atom['m']> = {};
  const names = Object.keys(s.properties ?? {}).sort();
  if (names.length > 0) {
    m.f = {};
    for (const name of names) {
      const p = s.properties![name]!;
      m.f[name] = makeRef(p, preserveUnknown);
      if (p.default !== undefined && (typeof p.default !== 'object' || p.default === null)) (m.d ??= {})[name] = p.default;
    }
  }
  const ap = s.additionalProperties;
  if (ap === undefined) {
    if (preserveUnknown || names.length === 0) m.e = deduced;
  } else if (typeof ap === 'object') {
    m.e = makeRef(ap, preserveUnknown);
  } else if (ap) {
    m.e = deduced;
  }
  const r = mapRelationship(s);
  if (r) m.r = r;
  return m;
}

function parseList(s: RawSchema, preserveUnknown: boolean): NonNullable<Atom['l']> {
  return { e: s.items ? makeRef(s.items, preserveUnknown) : untypedAtomic, ...listRelationship(s) };
}

function parseSchema(s: RawSchema, preserveUnknown: boolean): Atom {
  const type = s.type ?? '';
  switch (type) {
    case '':
      return { s: 'u', l: parseList(s, preserveUnknown), m: parseObject(s, preserveUnknown) };
    case 'object':
      return { m: parseObject(s, preserveUnknown) };
    case 'array':
      return { l: parseList(s, preserveUnknown) };
    default:
      return { s: primitive(type, s.format) };
  }
}

/** The value a required field without a struct default has in a Go zero value. */
function zeroOf(p: RawSchema, defs: Record<string, RawSchema>): unknown {
  const name = refName(p);
  if (name !== undefined) {
    if (name === 'io.k8s.apimachinery.pkg.util.intstr.IntOrString') return 0;
    if (name === quantity) return '0';
    return null;
  }
  switch (p.type) {
    case 'string':
      return '';
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    default:
      void defs;
      return null;
  }
}

function zeroFields(s: RawSchema, defs: Record<string, RawSchema>): Record<string, unknown> | undefined {
  const z: Record<string, unknown> = {};
  const required = new Set(s.required ?? []);
  for (const name of Object.keys(s.properties ?? {}).sort()) {
    const p = s.properties![name]!;
    const ref = refName(p);
    const isObjectDefault = typeof p.default === 'object' && p.default !== null && !Array.isArray(p.default);
    // openapi-gen gives non-pointer struct fields `default: {}`: Go always serializes them.
    if (isObjectDefault && ref !== undefined && defs[ref]?.properties) z[name] = '@';
    else if (isObjectDefault) z[name] = {};
    else if (required.has(name)) z[name] = zeroOf(p, defs);
  }
  return Object.keys(z).length > 0 ? z : undefined;
}

function render(defs: Record<string, RawSchema>): string {
  const names = Object.keys(defs).sort();
  const kinds = new Map<string, string>();
  const lines: string[] = [];
  lines.push('// Code generated by hack/gen-ssa-types.ts from api/gen/openapi/v3/*.json. DO NOT EDIT.');
  lines.push('/* eslint-disable */');
  lines.push('');
  lines.push('/** A type reference: `n`/`s`/`b`/`u` scalars, `@<definition>[!a|!s]`, or an inline atom. */');
  lines.push('export type SsaRef = string | SsaAtom;');
  lines.push('');
  lines.push('/** A structured-merge-diff atom in compact form (see hack/gen-ssa-types.ts). */');
  lines.push('export interface SsaAtom {');
  lines.push('  readonly s?: string;');
  lines.push("  readonly l?: { readonly e: SsaRef; readonly r?: 'as'; readonly k?: readonly string[] };");
  lines.push("  readonly m?: { readonly f?: Readonly<Record<string, SsaRef>>; readonly e?: SsaRef; readonly r?: 'a' | 's'; readonly d?: Readonly<Record<string, unknown>>; readonly z?: Readonly<Record<string, unknown>> };");
  lines.push('}');
  lines.push('');
  lines.push('/** The structured-merge-diff type of every definition of the 1.33 OpenAPI v3 documents, named without `io.k8s.`. */');
  lines.push('export const ssaTypes: Readonly<Record<string, SsaAtom>> = {');
  for (const name of names) {
    const def = defs[name]!;
    let atom: Atom;
    if (name === quantity) atom = { s: 'u' };
    else if (name === rawExtension) {
      // kube types RawExtension as an untyped scalar, which an embedded object never validates
      // against; Capstan types it as an atomic untyped value so such objects keep their managed fields.
      atom = { s: 'u', l: { e: untypedAtomic }, m: { e: untypedAtomic, r: 'a' } };
    } else atom = parseSchema(def, def['x-kubernetes-preserve-unknown-fields'] === true);
    const z = atom.m && def.properties ? zeroFields(def, defs) : undefined;
    if (z) atom.m!.z = z;
    for (const gvk of def['x-kubernetes-group-version-kind'] ?? []) {
      const apiVersion = gvk.group === '' ? gvk.version : `${gvk.group}/${gvk.version}`;
      kinds.set(`${apiVersion}/${gvk.kind}`, shortName(name));
    }
    lines.push(`  ${JSON.stringify(shortName(name))}: ${JSON.stringify(atom)},`);
  }
  lines.push('};');
  lines.push('');
  lines.push('/** The definition of every kind, keyed `<apiVersion>/<kind>` (`v1/Pod`, `apps/v1/Deployment`). */');
  lines.push('export const ssaKinds: Readonly<Record<string, string>> = {');
  for (const key of [...kinds.keys()].sort()) lines.push(`  ${JSON.stringify(key)}: ${JSON.stringify(kinds.get(key))},`);
  lines.push('};');
  lines.push('');
  return lines.join('\n');
}

async function main(): Promise<void> {
  const defs: Record<string, RawSchema> = {};
  for (const file of (await readdir(inputDir)).filter((f) => f.endsWith('.json')).sort()) {
    const doc = JSON.parse(await readFile(join(inputDir, file), 'utf8')) as { components?: { schemas?: Record<string, RawSchema> } };
    Object.assign(defs, doc.components?.schemas ?? {});
  }
  const text = render(defs);
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
  process.stderr.write(`gen-ssa-types: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});

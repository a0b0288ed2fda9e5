/**
 * ajv's errors as kube reports schema violations (apiextensions-apiserver's validation of a custom
 * resource through kube-openapi): kube's field paths, kube-openapi's message texts ("spec.replicas
 * in body should be greater than or equal to 1"), the field.Error type kube picks for each code,
 * anyOf/oneOf/allOf/not reported as kube-openapi's composite errors (at the `<nil>` path, as kube
 * does) with the failures of the closest branch, and kube's validator order.
 */
import type { ErrorObject } from 'ajv';
import { GoLiteral, goQuote, invalid, notSupported, required, tooLong, tooMany, typeInvalid, type FieldError } from '../../validation/field-error.js';
import { goSharpV } from '../../validation/schema/go-value-format.js';
import { sourceOf } from './ajv-compile.js';
import { childLocation, compareOrder, locate, rank, type Location, type Segment } from './data-path.js';
import type { StructuralNode } from './structural.js';

/** One schema error with what ordering and ratcheting need. */
export interface SchemaError {
  readonly error: FieldError;
  /** kube's emission order. */
  readonly order: readonly number[];
  /** The value whose validator raised the error (ratcheting compares it with the old object's). */
  readonly segments: readonly Segment[];
}

const composites = new Set(['anyOf', 'oneOf', 'allOf', 'not']);

/** Where the first composite keyword at or after from sits in a schema path (-1: none). */
function firstComposite(segs: readonly string[], from: number): number {
  for (let i = from; i < segs.length; i++) {
    const s = segs[i] as string;
    if (s === 'properties' || s === 'patternProperties') i++;
    else if (composites.has(s)) return i;
  }
  return -1;
}

function dataDepth(segs: readonly string[], from: number): number {
  let depth = 0;
  for (let i = from; i < segs.length; i++) {
    const s = segs[i] as string;
    if (s === 'properties' || s === 'patternProperties') {
      depth++;
      i++;
    } else if (s === 'additionalProperties') depth++;
    else if (s === 'items') {
      depth++;
      if (/^\d+$/.test(segs[i + 1] ?? '')) i++;
    } else if (s === 'anyOf' || s === 'oneOf' || s === 'allOf') i++;
  }
  return depth;
}

function stripPointer(pointer: string, levels: number): string {
  let p = pointer;
  for (let i = 0; i < levels; i++) p = p.slice(0, p.lastIndexOf('/'));
  return p;
}

/** The JSON type kube-openapi names for a decoded value (integers as "integer"). */
function jsonTypeOf(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v === 'object' ? 'object' : typeof v;
}

function typeText(e: ErrorObject): string {
  const src = sourceOf.get(e.parentSchema as object);
  if (src?.['x-kubernetes-int-or-string']) return 'integer,string';
  if (src?.type) return src.type;
  const t = e.params['type'] as string | string[];
  return Array.isArray(t) ? t.filter((x) => x !== 'null').join(',') : t;
}

function enumValues(values: readonly unknown[]): string[] {
  return values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
}

/**
 * A bad value as field.Error renders unstructured values: nil as "null", maps and slices in Go's
 * %#v form (field-error.ts would print them as JSON).
 */
function badValue(v: unknown): unknown {
  if (v === null || v === undefined) return 'null';
  return typeof v === 'object' ? new GoLiteral(goSharpV(v)) : v;
}

/** One non-composite ajv error as kube's field error, at loc (the value ajv checked). */
function toFieldError(e: ErrorObject, loc: Location): { error: FieldError; order: number[] } | undefined {
  const name = loc.path;
  const data = badValue(loc.value);
  const at = (r: number, sub = 0): number[] => [...loc.order, r, sub];
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'type': {
      const actual = jsonTypeOf(loc.value);
      return { error: typeInvalid(name, actual, `${name} in body must be of type ${typeText(e)}: ${goQuote(actual)}`), order: at(rank.type) };
    }
    case 'format':
      return { error: typeInvalid(name, data, `${name} in body must be of type ${String(p['format'])}: ${goQuote(String(loc.value))}`), order: at(rank.format) };
    case 'enum':
      return { error: notSupported(name, data, enumValues((e.schema as unknown[]) ?? [])), order: at(rank.enum) };
    case 'pattern':
      return { error: invalid(name, data, `${name} in body should match '${String(p['pattern'])}'`), order: at(rank.pattern) };
    case 'maxLength':
      return { error: tooLong(name, Number(p['limit'])), order: at(rank.maxLength) };
    case 'minLength':
      return { error: invalid(name, data, `${name} in body should be at least ${Number(p['limit'])} chars long`), order: at(rank.minLength) };
    case 'maximum':
      return { error: invalid(name, data, `${name} in body should be less than or equal to ${goSharpV(p['limit'])}`), order: at(rank.maximum) };
    case 'exclusiveMaximum':
      return { error: invalid(name, data, `${name} in body should be less than ${goSharpV(p['limit'])}`), order: at(rank.maximum) };
    case 'minimum':
      return { error: invalid(name, data, `${name} in body should be greater than or equal to ${goSharpV(p['limit'])}`), order: at(rank.minimum) };
    case 'exclusiveMinimum':
      return { error: invalid(name, data, `${name} in body should be greater than ${goSharpV(p['limit'])}`), order: at(rank.minimum) };
    case 'multipleOf':
      return { error: invalid(name, data, `${name} in body should be a multiple of ${goSharpV(p['multipleOf'])}`), order: at(rank.multipleOf) };
    case 'minItems':
      return {
        error: invalid(name, Array.isArray(loc.value) ? loc.value.length : 0, `${name} in body should have at least ${Number(p['limit'])} items`),
        order: at(rank.minItems),
      };
    case 'maxItems':
      return { error: tooMany(name, Array.isArray(loc.value) ? loc.value.length : -1, Number(p['limit'])), order: at(rank.maxItems) };
    case 'uniqueItems':
      return { error: invalid(name, '', `${name} in body shouldn't contain duplicates`), order: at(rank.uniqueItems) };
    case 'minProperties': {
      const n = typeof loc.value === 'object' && loc.value !== null ? Object.keys(loc.value).length : 0;
      return { error: invalid(name, n, `${name} in body should have at least ${Number(p['limit'])} properties`), order: at(rank.properties) };
    }
    case 'maxProperties': {
      const n = typeof loc.value === 'object' && loc.value !== null ? Object.keys(loc.value).length : -1;
      return { error: tooMany(name, n, Number(p['limit'])), order: at(rank.properties) };
    }
    case 'required': {
      const missing = String(p['missingProperty']);
      const requiredList = (e.schema as string[]) ?? [];
      return { error: required(name === '' ? missing : `${name}.${missing}`, ''), order: at(rank.required, requiredList.indexOf(missing)) };
    }
    case 'additionalProperties': {
      const key = String(p['additionalProperty']);
      const child = childLocation(loc, key);
      return { error: invalid(name, key, `${name}.${key} in body is a forbidden property`), order: [...child.order.slice(0, -2), rank.additional, child.order.at(-1) ?? 0] };
    }
    default:
      return undefined;
  }
}

function compositeMessage(kind: string, path: string, detail: string): string {
  const q = goQuote(path);
  switch (kind) {
    case 'anyOf':
      return `${q} must validate at least one schema (anyOf)`;
    case 'oneOf':
      return `${q} must validate one and only one schema (oneOf). ${detail}`;
    case 'allOf':
      return `${q} must validate all the schemas (allOf)${detail}`;
    default:
      return `${q} must not validate the schema (not)`;
  }
}

interface Group {
  readonly kind: string;
  readonly pointer: string;
  /** Where the schema path of an error inside a branch continues. */
  readonly branchStart: number;
  own?: ErrorObject;
  readonly branches: Map<string, ErrorObject[]>;
}

interface Context {
  readonly data: unknown;
  readonly root: StructuralNode;
  readonly cache: Map<string, Location>;
  readonly out: Array<SchemaError & { seq: number }>;
  seq: number;
}

/**
 * Maps errs, whose schema paths are examined from index from on; errors under a composite keyword
 * are grouped by it and reported as kube-openapi reports that keyword. base: the order every error
 * takes (inside a composite), else each error's own.
 */
function collect(errs: readonly ErrorObject[], from: number, ctx: Context, base?: readonly number[]): void {
  const groups = new Map<string, Group>();
  for (const e of errs) {
    const segs = e.schemaPath.split('/');
    const j = firstComposite(segs, from);
    if (j < 0) {
      const loc = locate(e.instancePath, ctx.data, ctx.root, ctx.cache);
      const mapped = toFieldError(e, loc);
      if (mapped) ctx.out.push({ error: mapped.error, order: base ?? mapped.order, segments: loc.segments, seq: ctx.seq++ });
      continue;
    }
    const key = segs.slice(0, j + 1).join('/');
    const isOwn = j === segs.length - 1 && e.keyword === segs[j];
    const branchStart = segs[j] === 'not' ? j + 1 : j + 2;
    const pointer = isOwn ? e.instancePath : stripPointer(e.instancePath, dataDepth(segs, branchStart));
    let g = groups.get(key);
    if (!g) {
      g = { kind: segs[j] as string, pointer, branchStart, branches: new Map() };
      groups.set(key, g);
    }
    if (isOwn) g.own = e;
    else {
      const branch = segs[j] === 'not' ? '' : (segs[j + 1] ?? '');
      const list = g.branches.get(branch) ?? [];
      list.push(e);
      g.branches.set(branch, list);
    }
  }
  for (const g of groups.values()) emitGroup(g, ctx, base);
}

function emitGroup(g: Group, ctx: Context, base: readonly number[] | undefined): void {
  const loc = locate(g.pointer, ctx.data, ctx.root, ctx.cache);
  const order = base ?? [...loc.order, rank.composite];
  const emit = (msg: string): void => {
    ctx.out.push({ error: invalid(undefined, '', msg), order, segments: loc.segments, seq: ctx.seq++ });
  };
  const best = (): ErrorObject[] => {
    let pick: ErrorObject[] = [];
    for (const errs of g.branches.values()) if (pick.length === 0 || errs.length < pick.length) pick = errs;
    return pick;
  };
  if (g.kind === 'allOf') {
    if (g.branches.size === 0) return;
    const total = loc.node?.props.allOf?.length ?? -1;
    emit(compositeMessage('allOf', loc.path, g.branches.size === total ? '. None validated' : ''));
    for (const errs of g.branches.values()) collect(errs, g.branchStart, ctx, order);
    return;
  }
  if (!g.own) return;
  if (g.kind === 'anyOf') {
    emit(compositeMessage('anyOf', loc.path, ''));
    collect(best(), g.branchStart, ctx, order);
  } else if (g.kind === 'oneOf') {
    const passing = (g.own.params as { passingSchemas?: number[] | null }).passingSchemas;
    if (Array.isArray(passing)) emit(compositeMessage('oneOf', loc.path, `Found ${passing.length} valid alternatives`));
    else {
      emit(compositeMessage('oneOf', loc.path, 'Found none valid'));
      collect(best(), g.branchStart, ctx, order);
    }
  } else emit(compositeMessage('not', loc.path, ''));
}

/** Maps ajv's errors for data (validated against root) to kube's, in kube's order. */
export function schemaErrors(ajvErrors: readonly ErrorObject[], data: unknown, root: StructuralNode): SchemaError[] {
  const ctx: Context = { data, root, cache: new Map(), out: [], seq: 0 };
  collect(ajvErrors, 1, ctx);
  return dropBelowPropertyCountFailures(ctx.out)
    .sort((a, b) => compareOrder(a.order, b.order) || a.seq - b.seq)
    .map(({ error, order, segments }) => ({ error, order, segments }));
}

/** kube-openapi stops validating an object whose property count is out of bounds: nothing below it is reported. */
function dropBelowPropertyCountFailures<T extends SchemaError>(errs: T[]): T[] {
  const stopped = errs.filter((e) => e.order.at(-2) === rank.properties).map((e) => e.order.slice(0, -2));
  if (stopped.length === 0) return errs;
  return errs.filter((e) =>
    !stopped.some((prefix) => {
      if (e.order.length <= prefix.length || compareOrder(e.order.slice(0, prefix.length), prefix) !== 0) return false;
      const r = e.order[prefix.length] as number;
      return r === rank.additional || r === rank.property || r === rank.required;
    }),
  );
}

/**
 * Static cost estimation of an expression, following cel-go's checker cost model (checker/cost.go
 * with Kubernetes' library costs): every identifier and field selection costs 1, each call 1 plus
 * what its function traverses (a tenth of a string's size, a list's length, the product of the
 * sizes for regular expressions and substring search), list and map literals their creation cost,
 * and a comprehension its loop body times the largest size of what it ranges over. Sizes come from
 * the variables' declared types (maxLength, maxItems, maxProperties or their estimates). Alongside
 * the cost it infers the result type where it is certain (for "must evaluate to a bool") and which
 * declared variables the expression references.
 */
import { parse } from '@bufbuild/cel';
import type { Expr } from '@bufbuild/cel-spec/cel/expr/syntax_pb.js';
import { costStepFunction, maxId, optIndexCall, optSelectFunction, rewrite } from './ast.js';
import { preprocessOptionalSyntax } from './optional-syntax.js';
import type { SchemaType } from './schema-check.js';

/** A type as the estimator knows it: kind, the largest size of strings, bytes, lists and maps, and the parts. */
export interface StaticType {
  readonly kind: 'object' | 'list' | 'map' | 'string' | 'bytes' | 'int' | 'uint' | 'double' | 'bool' | 'null' | 'timestamp' | 'duration' | 'type' | 'optional' | 'dyn';
  /** Largest length (strings, bytes) or element count (lists, maps). */
  readonly maxSize?: number;
  /** List element or map value type. */
  readonly elem?: StaticType;
  /** Object fields by their CEL (escaped) names. */
  readonly fields?: ReadonlyMap<string, StaticType>;
  /** Whether an object may hold fields that are not declared. */
  readonly open?: boolean;
}

/** The estimate of one expression. */
export interface CostEstimate {
  /** The worst-case cost (cel-go's CostEstimate.Max). */
  readonly cost: number;
  /** The result type; kind 'dyn' when not certain. */
  readonly type: StaticType;
  /** The declared variables the expression references. */
  readonly references: ReadonlySet<string>;
}

const dyn: StaticType = { kind: 'dyn' };
const bool: StaticType = { kind: 'bool' };
const int: StaticType = { kind: 'int' };
/** The size of map keys when iterating a map (kube's estimate: anything a request can hold). */
const mapKeySize = 3 * 1024 * 1024 - 2;

const stringTraversal = 0.1;
const regexFactor = 0.25;
const listCreate = 10;
const mapCreate = 30;

const boolFunctions = new Set(['contains', 'startsWith', 'endsWith', 'matches', 'isSorted', 'isURL', 'isIP', 'isCIDR', 'isQuantity', 'isSemver', 'hasValue', 'sets.contains', 'sets.equivalent', 'sets.intersects', '_<_', '_<=_', '_>_', '_>=_', '_==_', '_!=_', '@in', '!_', '_&&_', '_||_', 'exists', 'all', 'isGreaterThan', 'isLessThan', 'containsIP', 'containsCIDR', 'isLoopback', 'isUnspecified', 'isGlobalUnicast', 'isLinkLocalMulticast', 'isLinkLocalUnicast', 'isCanonical', 'bool']);
const intFunctions = new Set(['size', 'int', 'indexOf', 'lastIndexOf', 'compareTo', 'getHours', 'getMinutes', 'getSeconds', 'getMilliseconds', 'getFullYear', 'getMonth', 'getDate', 'getDayOfMonth', 'getDayOfWeek', 'getDayOfYear', 'major', 'minor', 'patch', 'prefixLength', 'family', 'asInteger']);
const stringFunctions = new Set(['string', 'lowerAscii', 'upperAscii', 'trim', 'replace', 'substring', 'charAt', 'join', 'format', 'quote', 'reverse', 'getScheme', 'getHost', 'getHostname', 'getPort', 'getEscapedPath', 'getQuery']);
// Functions reading their receiver's (or first argument's) whole string once.
const stringTraversing = new Set(['lowerAscii', 'upperAscii', 'trim', 'replace', 'substring', 'charAt', 'indexOf', 'lastIndexOf', 'split', 'url', 'isURL', 'ip', 'isIP', 'cidr', 'isCIDR', 'quantity', 'isQuantity', 'semver', 'isSemver', 'int', 'double', 'bytes', 'string', 'format', 'quote', 'reverse', 'timestamp', 'duration']);
// List functions that walk the whole list.
const listTraversing = new Set(['isSorted', 'sum', 'min', 'max', 'indexOf', 'lastIndexOf', 'join', 'reverse', 'distinct', 'flatten', 'slice']);

/** cel-go's size of a value with no estimate (math.MaxUint64): whatever uses it is over any limit. */
export const unknownSize = 18446744073709551615;
const scalars = new Set(['int', 'uint', 'double', 'bool', 'null', 'timestamp', 'duration', 'type']);

/** A type's largest size: its estimate, 1 for a computed scalar, else unknown. */
function sizeOf(t: StaticType): number {
  if (t.maxSize !== undefined) return t.maxSize;
  return scalars.has(t.kind) ? 1 : unknownSize;
}

function constType(e: Expr): StaticType {
  if (e.exprKind.case !== 'constExpr') return dyn;
  const c = e.exprKind.value.constantKind;
  switch (c.case) {
    case 'int64Value':
      return int;
    case 'uint64Value':
      return { kind: 'uint' };
    case 'doubleValue':
      return { kind: 'double' };
    case 'boolValue':
      return bool;
    case 'stringValue':
      return { kind: 'string', maxSize: c.value.length };
    case 'bytesValue':
      return { kind: 'bytes', maxSize: c.value.length };
    case 'nullValue':
      return { kind: 'null' };
    default:
      return dyn;
  }
}

interface Walked {
  readonly cost: number;
  readonly type: StaticType;
}

/**
 * Estimates expression given its variables' types; throws the parser's error text when it does
 * not parse (callers compile first, so that is not expected).
 */
export function estimateCost(expression: string, variables: ReadonlyMap<string, StaticType>): CostEstimate {
  const pre = preprocessOptionalSyntax(expression);
  const parsed = parse(pre.text);
  if (!parsed.expr) return { cost: 0, type: dyn, references: new Set() };
  let next = maxId(parsed.expr);
  rewrite(parsed.expr, () => ++next);
  const references = new Set<string>();

  const walk = (e: Expr | undefined, scope: ReadonlyMap<string, StaticType>): Walked => {
    if (!e) return { cost: 0, type: dyn };
    const k = e.exprKind;
    switch (k.case) {
      case 'constExpr':
        return { cost: 0, type: constType(e) };
      case 'identExpr': {
        const name = k.value.name;
        const local = scope.get(name);
        if (local) return { cost: 1, type: local };
        const v = variables.get(name);
        if (v) references.add(name);
        return { cost: 1, type: v ?? dyn };
      }
      case 'selectExpr': {
        const operand = walk(k.value.operand, scope);
        // kube's estimates charge nothing for a presence test.
        if (k.value.testOnly) return { cost: 0, type: bool };
        return { cost: operand.cost + 1, type: member(operand.type, k.value.field) };
      }
      case 'listExpr': {
        let cost = listCreate;
        let elem: StaticType = dyn;
        k.value.elements.forEach((x, i) => {
          const w = walk(x, scope);
          cost += w.cost;
          if (i === 0) elem = w.type;
        });
        return { cost, type: { kind: 'list', elem, maxSize: k.value.elements.length } };
      }
      case 'structExpr': {
        let cost = mapCreate;
        let value: StaticType = dyn;
        for (const entry of k.value.entries) {
          if (entry.keyKind.case === 'mapKey') cost += walk(entry.keyKind.value, scope).cost;
          const w = walk(entry.value, scope);
          cost += w.cost;
          value = w.type;
        }
        return { cost, type: { kind: 'map', elem: value, maxSize: k.value.entries.length } };
      }
      case 'comprehensionExpr': {
        const c = k.value;
        const range = walk(c.iterRange, scope);
        const init = walk(c.accuInit, scope);
        const n = range.type.kind === 'list' && c.iterRange?.exprKind.case === 'listExpr' ? c.iterRange.exprKind.value.elements.length : sizeOf(range.type);
        const inner = new Map(scope);
        const rt = range.type;
        if (c.iterVar2) {
          inner.set(c.iterVar, rt.kind === 'map' ? { kind: 'string', maxSize: mapKeySize } : int);
          inner.set(c.iterVar2, rt.elem ?? dyn);
        } else {
          inner.set(c.iterVar, rt.kind === 'list' ? (rt.elem ?? dyn) : rt.kind === 'map' ? { kind: 'string', maxSize: mapKeySize } : dyn);
        }
        // The accumulator of map()/filter() grows to the range's size; all()/exists() keep a bool.
        let accu: StaticType = init.type.kind === 'list' ? { kind: 'list', elem: dyn, maxSize: n } : init.type;
        inner.set(c.accuVar, accu);
        const cond = walk(c.loopCondition, inner);
        let step = walk(c.loopStep, inner);
        // Its elements are what the step appends (the range's for filter(), the mapped value's for
        // map()), as cel-go's checker types them: without this, indexing the result is unbounded.
        const appended = step.type.kind === 'list' ? step.type.elem : undefined;
        if (accu.kind === 'list' && appended && appended.kind !== 'dyn') {
          accu = { ...accu, elem: appended };
          inner.set(c.accuVar, accu);
          step = walk(c.loopStep, inner);
        }
        const resultScope = new Map(scope);
        resultScope.set(c.accuVar, accu);
        const result = walk(c.result, resultScope);
        return { cost: range.cost + init.cost + n * (cond.cost + step.cost) + result.cost, type: result.type };
      }
      case 'callExpr':
        return call(k.value.function, k.value.target, k.value.args, scope);
      default:
        return { cost: 0, type: dyn };
    }
  };

  const call = (fn: string, targetExpr: Expr | undefined, argExprs: readonly Expr[], scope: ReadonlyMap<string, StaticType>): Walked => {
    if (fn === costStepFunction) return walk(argExprs[0], scope);
    const target = targetExpr ? walk(targetExpr, scope) : undefined;
    const args = argExprs.map((a) => walk(a, scope));
    const argCost = (target?.cost ?? 0) + args.reduce((s, a) => s + a.cost, 0);
    const t0 = target?.type ?? args[0]?.type ?? dyn;
    const a0 = (target ? args[0] : args[1])?.type ?? dyn;
    const traverse = (t: StaticType) => Math.ceil(sizeOf(t) * stringTraversal);
    const str = (maxSize: number): StaticType => ({ kind: 'string', maxSize });
    switch (fn) {
      case '_&&_':
      case '_||_':
        return { cost: argCost, type: bool };
      case '_?_:_': {
        const [c, a, b] = args as [Walked, Walked, Walked];
        const type = a.type.kind !== 'dyn' && a.type.kind !== 'null' ? a.type : b.type;
        return { cost: c.cost + Math.max(a.cost, b.cost), type };
      }
      case optSelectFunction:
      case optIndexCall:
        return { cost: argCost + 1, type: { kind: 'optional', elem: fn === optSelectFunction ? member(unwrapOptional(args[0]!.type), literalField(argExprs[1])) : indexed(unwrapOptional(args[0]!.type)) } };
      case '_[_]':
        return { cost: argCost + 1, type: indexed(args[0]!.type) };
      case '_+_': {
        const [l, r] = [args[0]!.type, args[1]!.type];
        if (l.kind === 'string' || r.kind === 'string' || l.kind === 'bytes') {
          const size = sizeOf(l) + sizeOf(r);
          return { cost: argCost + Math.ceil(size * stringTraversal), type: { kind: l.kind === 'bytes' ? 'bytes' : 'string', maxSize: size } };
        }
        if (l.kind === 'list' || r.kind === 'list') {
          const elem = l.elem && l.elem.kind !== 'dyn' ? l.elem : (r.elem ?? l.elem ?? dyn);
          return { cost: argCost + 1, type: { kind: 'list', elem, maxSize: sizeOf(l) + sizeOf(r) } };
        }
        return { cost: argCost + 1, type: arithmetic(l, r) };
      }
      case '_-_':
      case '_*_':
      case '_/_':
      case '_%_':
        return { cost: argCost + 1, type: arithmetic(args[0]!.type, args[1]!.type) };
      case '-_':
        return { cost: argCost + 1, type: args[0]!.type };
      case '_==_':
      case '_!=_':
        // Equality traverses the smaller side (0 for a schema's scalars, 1 for computed ones).
        return { cost: argCost + Math.ceil(Math.min(sizeOf(args[0]!.type), sizeOf(args[1]!.type)) * stringTraversal), type: bool };
      case '_<_':
      case '_<=_':
      case '_>_':
      case '_>=_': {
        const l = args[0]!.type;
        const stringy = l.kind === 'string' || l.kind === 'bytes';
        return { cost: argCost + (stringy ? Math.ceil(Math.min(sizeOf(l), sizeOf(args[1]!.type)) * stringTraversal) : 1), type: bool };
      }
      case '@in': {
        const container = args[1]!.type;
        return { cost: argCost + (container.kind === 'map' ? 1 : sizeOf(container)), type: bool };
      }
      case 'matches':
      case 'find':
      case 'findAll': {
        const s0 = target ? t0 : args[0]!.type;
        const re = target ? args[0]!.type : args[1]!.type;
        const cost = Math.max(1, traverse(s0)) * Math.ceil(sizeOf(re) * regexFactor);
        const type: StaticType = fn === 'matches' ? bool : fn === 'find' ? str(sizeOf(s0)) : { kind: 'list', elem: str(sizeOf(s0)), maxSize: sizeOf(s0) };
        return { cost: argCost + cost, type };
      }
      case 'contains':
        return { cost: argCost + traverse(t0) * traverse(a0), type: bool };
      case 'startsWith':
      case 'endsWith':
        return { cost: argCost + traverse(a0), type: bool };
      case 'lowerAscii':
      case 'upperAscii':
      case 'trim':
      case 'reverse':
        if (t0.kind === 'list') return { cost: argCost + sizeOf(t0), type: t0 };
        return { cost: argCost + traverse(t0), type: str(sizeOf(t0)) };
      case 'replace':
        return { cost: argCost + 2 * traverse(t0), type: str(sizeOf(t0)) };
      case 'split':
        return { cost: argCost + 1 + traverse(t0), type: { kind: 'list', elem: str(sizeOf(t0)), maxSize: sizeOf(t0) } };
      case 'join': {
        const elem = t0.elem ?? dyn;
        return { cost: argCost + 1 + sizeOf(t0) * traverse(elem), type: str(sizeOf(t0) * sizeOf(elem)) };
      }
      case 'isSorted':
      case 'sum':
      case 'min':
      case 'max':
        if (t0.kind !== 'list') break;
        return { cost: argCost + sizeOf(t0) * (1 + traverse(t0.elem ?? dyn)), type: fn === 'isSorted' ? bool : (t0.elem ?? dyn) };
      case 'indexOf':
      case 'lastIndexOf':
        if (t0.kind === 'list') return { cost: argCost + sizeOf(t0) * (1 + traverse(t0.elem ?? dyn)), type: int };
        return { cost: argCost + traverse(t0) * traverse(a0), type: int };
      case 'sets.contains':
      case 'sets.equivalent':
      case 'sets.intersects':
        return { cost: argCost + sizeOf(args[0]!.type) * sizeOf(args[1]!.type), type: bool };
      case 'string':
        // A scalar's text is short (an int64 has at most 20 characters, a timestamp about 32).
        if (!target && args.length === 1) {
          const t = args[0]!.type;
          const size = t.kind === 'string' || t.kind === 'bytes' ? sizeOf(t) : scalars.has(t.kind) ? 32 : unknownSize;
          return { cost: argCost + 1 + (t.kind === 'string' || t.kind === 'bytes' ? traverse(t) : 0), type: str(size) };
        }
        break;
      case 'sort':
        return { cost: argCost + Math.ceil(sizeOf(t0) * Math.log2(Math.max(2, sizeOf(t0)))), type: t0 };
      default:
        break;
    }
    let cost = argCost + 1;
    if (t0.kind === 'list' && listTraversing.has(fn)) cost += sizeOf(t0);
    else if ((t0.kind === 'string' || t0.kind === 'bytes') && stringTraversing.has(fn)) cost += traverse(t0);
    return { cost, type: resultType(fn, t0) };
  };

  const w = walk(parsed.expr, new Map());
  return { cost: Math.min(w.cost, unknownSize), type: w.type, references };
}

function literalField(e: Expr | undefined): string {
  return e?.exprKind.case === 'constExpr' && e.exprKind.value.constantKind.case === 'stringValue' ? e.exprKind.value.constantKind.value : '';
}

function unwrapOptional(t: StaticType): StaticType {
  return t.kind === 'optional' ? (t.elem ?? dyn) : t;
}

function member(t: StaticType, field: string): StaticType {
  if (t.kind === 'object') return t.fields?.get(field) ?? dyn;
  if (t.kind === 'map') return t.elem ?? dyn;
  return dyn;
}

function indexed(t: StaticType): StaticType {
  return t.kind === 'list' || t.kind === 'map' ? (t.elem ?? dyn) : dyn;
}

function arithmetic(l: StaticType, r: StaticType): StaticType {
  if (l.kind === 'timestamp' && r.kind === 'timestamp') return { kind: 'duration' };
  if (l.kind === 'timestamp' || r.kind === 'timestamp') return { kind: 'timestamp' };
  if (l.kind === r.kind && ['int', 'uint', 'double', 'duration'].includes(l.kind)) return l;
  return dyn;
}

function resultType(fn: string, t0: StaticType): StaticType {
  if (boolFunctions.has(fn)) return bool;
  if (intFunctions.has(fn)) return int;
  if (fn === 'double') return { kind: 'double' };
  if (fn === 'uint') return { kind: 'uint' };
  if (fn === 'timestamp') return { kind: 'timestamp' };
  if (fn === 'duration') return { kind: 'duration' };
  if (fn === 'bytes') return { kind: 'bytes', maxSize: sizeOf(t0) };
  if (fn === 'type') return { kind: 'type' };
  if (stringFunctions.has(fn) && !(fn === 'reverse' && t0.kind === 'list')) return { kind: 'string', maxSize: t0.kind === 'string' ? sizeOf(t0) : undefined };
  if (fn === 'reverse' || fn === 'slice' || fn === 'distinct') return t0;
  if ((fn === 'min' || fn === 'max' || fn === 'sum') && t0.kind === 'list') return t0.elem ?? dyn;
  return dyn;
}

const schemaTypes = new WeakMap<StaticType, SchemaType>();

/** The schema checker's view of a static type (schema-check.ts); memoized per type object. */
export function toSchemaType(t: StaticType): SchemaType {
  let out = schemaTypes.get(t);
  if (!out) {
    out = convert(t);
    schemaTypes.set(t, out);
  }
  return out;
}

function convert(t: StaticType): SchemaType {
  switch (t.kind) {
    case 'object':
      return { kind: 'object', fields: t.fields ? new Map([...t.fields].map(([k, v]) => [k, toSchemaType(v)])) : undefined, open: t.open ?? false };
    case 'list':
      return { kind: 'list', element: toSchemaType(t.elem ?? dyn) };
    case 'map':
      return { kind: 'map', value: toSchemaType(t.elem ?? dyn) };
    case 'int':
    case 'string':
    case 'bool':
    case 'double':
    case 'bytes':
      return { kind: 'scalar', name: t.kind };
    default:
      return { kind: 'dyn' };
  }
}

/**
 * Type checking of an expression against the schemas of the objects its variables hold (kube's
 * ValidatingAdmissionPolicy type checking, the part that needs schemas): a field selected on an
 * object whose schema does not have it is "undefined field 'x'", and comparing or adding a typed
 * field with a literal of another type is "found no matching overload". Each issue is rendered as
 * cel-go renders it. Values the schema does not describe are not checked.
 */
import { parse } from '@bufbuild/cel';
import type { Expr } from '@bufbuild/cel-spec/cel/expr/syntax_pb.js';
import { formatIssue } from './check.js';

/** A type as the checker knows it. */
export type SchemaType =
  | { readonly kind: 'object'; readonly fields: ReadonlyMap<string, SchemaType> | undefined; readonly open: boolean }
  | { readonly kind: 'list'; readonly element: SchemaType }
  | { readonly kind: 'map'; readonly value: SchemaType }
  | { readonly kind: 'scalar'; readonly name: 'int' | 'string' | 'bool' | 'double' | 'bytes' }
  | { readonly kind: 'dyn' };

const dyn: SchemaType = { kind: 'dyn' };
const comparisons = new Set(['_==_', '_!=_', '_<_', '_<=_', '_>_', '_>=_', '_+_', '_-_']);

function constType(e: Expr): string | undefined {
  if (e.exprKind.case !== 'constExpr') return undefined;
  switch (e.exprKind.value.constantKind.case) {
    case 'int64Value':
      return 'int';
    case 'uint64Value':
      return 'uint';
    case 'stringValue':
      return 'string';
    case 'boolValue':
      return 'bool';
    case 'doubleValue':
      return 'double';
    case 'bytesValue':
      return 'bytes';
    default:
      return undefined;
  }
}

function typeName(t: SchemaType): string {
  switch (t.kind) {
    case 'scalar':
      return t.name;
    case 'list':
      return `list(${typeName(t.element)})`;
    case 'map':
      return `map(string, ${typeName(t.value)})`;
    case 'object':
      return 'object';
    default:
      return 'dyn';
  }
}

/** Issues of expression given the types of its variables; [] when it does not parse (compile errors are reported elsewhere). */
export function schemaCheck(expression: string, variables: ReadonlyMap<string, SchemaType>): string[] {
  let parsed;
  try {
    parsed = parse(expression);
  } catch {
    return [];
  }
  const positions = parsed.sourceInfo?.positions ?? {};
  const issues: string[] = [];
  const report = (e: Expr, message: string) => issues.push(formatIssue(expression, message, positions[e.id.toString()] ?? 0));

  const typeOf = (e: Expr | undefined, scope: ReadonlyMap<string, SchemaType>): SchemaType => {
    if (!e) return dyn;
    const k = e.exprKind;
    switch (k.case) {
      case 'identExpr':
        return scope.get(k.value.name) ?? variables.get(k.value.name) ?? dyn;
      case 'selectExpr': {
        const operand = typeOf(k.value.operand, scope);
        if (k.value.testOnly) return { kind: 'scalar', name: 'bool' };
        if (operand.kind === 'object' && operand.fields) {
          const f = operand.fields.get(k.value.field);
          if (f) return f;
          if (!operand.open) report(e, `undefined field '${k.value.field}'`);
          return dyn;
        }
        if (operand.kind === 'map') return operand.value;
        return dyn;
      }
      case 'comprehensionExpr': {
        const c = k.value;
        const range = typeOf(c.iterRange, scope);
        typeOf(c.accuInit, scope);
        const inner = new Map(scope);
        inner.set(c.iterVar, range.kind === 'list' ? range.element : range.kind === 'map' ? { kind: 'scalar', name: 'string' } : dyn);
        inner.set(c.accuVar, dyn);
        typeOf(c.loopCondition, inner);
        typeOf(c.loopStep, inner);
        typeOf(c.result, inner);
        return dyn;
      }
      case 'callExpr': {
        const call = k.value;
        const target = call.target ? typeOf(call.target, scope) : undefined;
        const args = call.args.map((a) => typeOf(a, scope));
        if (call.function === '_[_]' && args.length === 2) {
          const c = args[0]!;
          if (c.kind === 'list') return c.element;
          if (c.kind === 'map') return c.value;
          return dyn;
        }
        if (comparisons.has(call.function) && args.length === 2) {
          for (const [i, j] of [[0, 1], [1, 0]] as const) {
            const t = args[i]!;
            const lit = constType(call.args[j]!);
            if (t.kind === 'scalar' && lit && lit !== t.name && !(['int', 'double', 'uint'].includes(lit) && ['int', 'double'].includes(t.name) && call.function !== '_+_' && call.function !== '_-_')) {
              const types = i === 0 ? [typeName(t), lit] : [lit, typeName(t)];
              report(e, `found no matching overload for '${call.function}' applied to '(${types.join(', ')})'`);
              break;
            }
          }
        }
        void target;
        return dyn;
      }
      case 'listExpr':
        k.value.elements.forEach((x) => typeOf(x, scope));
        return dyn;
      case 'structExpr':
        for (const entry of k.value.entries) {
          if (entry.keyKind.case === 'mapKey') typeOf(entry.keyKind.value, scope);
          typeOf(entry.value, scope);
        }
        return dyn;
      default:
        return dyn;
    }
  };
  if (parsed.expr) typeOf(parsed.expr, new Map());
  return issues;
}

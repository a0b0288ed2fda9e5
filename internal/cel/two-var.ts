/**
 * cel-go's two-variable comprehensions (ext.TwoVarComprehensions, in Kubernetes' environment since
 * 1.33): `all(i, v, p)`, `exists(i, v, p)`, `existsOne(i, v, p)`, `transformList(i, v, [f,] e)`,
 * `transformMap(k, v, [f,] e)` and `transformMapEntry(k, v, [f,] e)`. @bufbuild/cel's parser and
 * evaluator know only one iteration variable, so each is expanded into a one-variable
 * comprehension over the range's keys (a list's indices, a map's keys) whose step binds the second
 * variable to the element.
 */
import type { Expr } from '@bufbuild/cel-spec/cel/expr/syntax_pb.js';

/** The range's keys: a list's indices or a map's keys. */
export const keysFunction = '@k8s_keys';
/** A map with one more entry (an error when the key is already there). */
export const mapInsertFunction = '@k8s_map_insert';
/** Two maps merged (an error when a key is in both). */
export const mapMergeFunction = '@k8s_map_merge';

const macros: Record<string, readonly number[]> = { all: [3], exists: [3], existsOne: [3], exists_one: [3], transformList: [3, 4], transformMap: [3, 4], transformMapEntry: [3, 4] };

/** Whether call (function name, argument count) is a two-variable macro. */
export function isTwoVarMacro(fn: string, args: readonly Expr[]): boolean {
  return (macros[fn]?.includes(args.length) ?? false) && args[0]?.exprKind.case === 'identExpr' && args[1]?.exprKind.case === 'identExpr';
}

/** The expansion of target.fn(a, b, ...rest); ids from nextId. */
export function expandTwoVar(target: Expr, fn: string, args: readonly Expr[], nextId: () => bigint): Expr['exprKind'] {
  const n = (exprKind: unknown): Expr => ({ $typeName: 'cel.expr.Expr', id: nextId(), exprKind }) as Expr;
  const ident = (name: string) => n({ case: 'identExpr', value: { $typeName: 'cel.expr.Expr.Ident', name } });
  const lit = (case_: string, value: unknown) => n({ case: 'constExpr', value: { $typeName: 'cel.expr.Constant', constantKind: { case: case_, value } } });
  const call = (fn: string, a: Expr[]) => n({ case: 'callExpr', value: { $typeName: 'cel.expr.Expr.Call', function: fn, args: a } });
  const list = (elements: Expr[]) => n({ case: 'listExpr', value: { $typeName: 'cel.expr.Expr.CreateList', elements, optionalIndices: [] } });
  const fold = (iterVar: string, range: Expr, accuVar: string, init: Expr, cond: Expr, step: Expr, result: Expr) =>
    n({ case: 'comprehensionExpr', value: { $typeName: 'cel.expr.Expr.Comprehension', iterVar, iterVar2: '', iterRange: range, accuVar, accuInit: init, loopCondition: cond, loopStep: step, result } });
  const bind = (name: string, value: Expr, body: Expr) => fold('#unused', list([]), name, value, lit('boolValue', false), ident(name), body);

  const a = (args[0]!.exprKind.value as { name: string }).name;
  const b = (args[1]!.exprKind.value as { name: string }).name;
  const rangeVar = '@k8s_range';
  const accu = '@result';
  // The second variable is the element at the first: range[a].
  const withB = (body: Expr) => bind(b, call('_[_]', [ident(rangeVar), ident(a)]), body);
  const t = () => lit('boolValue', true);
  let loop: Expr;
  const keys = call(keysFunction, [ident(rangeVar)]);
  const filtered = (filter: Expr | undefined, step: Expr) => (filter ? call('_?_:_', [withB(filter), step, ident(accu)]) : step);
  switch (fn) {
    case 'all':
      loop = fold(a, keys, accu, t(), call('@not_strictly_false', [ident(accu)]), call('_&&_', [ident(accu), withB(args[2]!)]), ident(accu));
      break;
    case 'exists':
      loop = fold(a, keys, accu, lit('boolValue', false), call('@not_strictly_false', [call('!_', [ident(accu)])]), call('_||_', [ident(accu), withB(args[2]!)]), ident(accu));
      break;
    case 'existsOne':
    case 'exists_one':
      loop = fold(a, keys, accu, lit('int64Value', 0n), t(), call('_?_:_', [withB(args[2]!), call('_+_', [ident(accu), lit('int64Value', 1n)]), ident(accu)]), call('_==_', [ident(accu), lit('int64Value', 1n)]));
      break;
    case 'transformList': {
      const [filter, expr] = args.length === 4 ? [args[2], args[3]!] : [undefined, args[2]!];
      loop = fold(a, keys, accu, list([]), t(), filtered(filter, call('_+_', [ident(accu), list([withB(expr)])])), ident(accu));
      break;
    }
    default: {
      const [filter, expr] = args.length === 4 ? [args[2], args[3]!] : [undefined, args[2]!];
      const emptyMap = n({ case: 'structExpr', value: { $typeName: 'cel.expr.Expr.CreateStruct', messageName: '', entries: [] } });
      const step = fn === 'transformMap' ? call(mapInsertFunction, [ident(accu), ident(a), withB(expr)]) : call(mapMergeFunction, [ident(accu), withB(expr)]);
      loop = fold(a, keys, accu, emptyMap, t(), filtered(filter, step), ident(accu));
    }
  }
  return bind(rangeVar, target, loop).exprKind;
}

/**
 * Rewrites of a parsed expression before it is planned: the cel.bind macro (which @bufbuild/cel's
 * parser leaves as a call) expanded into the comprehension cel-go makes of it, and every
 * comprehension's loop step wrapped in the cost-counting identity so each iteration is charged.
 */
import type { Expr } from '@bufbuild/cel-spec/cel/expr/syntax_pb.js';
import { optFieldPrefix, optIndexFunction } from './optional-syntax.js';
import { expandTwoVar, isTwoVarMacro } from './two-var.js';

/** The optional library's function behind `a.?b` (see optional-syntax.ts). */
export const optSelectFunction = '@k8s_opt_select';
/** The optional library's function behind `a[?k]`. */
export const optIndexCall = '@k8s_opt_index';

function isOptCall(e: Expr | undefined): boolean {
  return e?.exprKind.case === 'callExpr' && (e.exprKind.value.function === optSelectFunction || e.exprKind.value.function === optIndexCall);
}

function call(fn: string, args: Expr[]): Expr['exprKind'] {
  return { case: 'callExpr', value: { $typeName: 'cel.expr.Expr.Call', function: fn, args } as never };
}

/** The identity function that charges one unit of cost per comprehension iteration. */
export const costStepFunction = '@k8s_cost_step';

/** The accumulator name cel-go's macros use (@result in cel-go 0.20+; the older name also occurs). */
const hiddenIdents = new Set(['@result', '__result__', '@it', '@ac']);

/** Whether name is an identifier macros introduce (never a user's variable). */
export function isHiddenIdent(name: string): boolean {
  return hiddenIdents.has(name);
}

type Kind = Expr['exprKind'];

function node(id: bigint, exprKind: Kind): Expr {
  return { $typeName: 'cel.expr.Expr', id, exprKind } as Expr;
}

/** Rewrites expr in place (and returns it); nextId supplies ids for the nodes it adds. */
export function rewrite(expr: Expr, nextId: () => bigint): Expr {
  const k = expr.exprKind;
  switch (k.case) {
    case 'selectExpr': {
      const operand = k.value.operand;
      if (operand) rewrite(operand, nextId);
      const field = k.value.field;
      if (operand && !k.value.testOnly && (field.startsWith(optFieldPrefix) || isOptCall(operand))) {
        const name = field.startsWith(optFieldPrefix) ? field.slice(optFieldPrefix.length) : field;
        const key = node(nextId(), { case: 'constExpr', value: { $typeName: 'cel.expr.Constant', constantKind: { case: 'stringValue', value: name } } as never });
        expr.exprKind = call(optSelectFunction, [operand, key]);
      }
      return expr;
    }
    case 'listExpr':
      k.value.elements.forEach((e) => rewrite(e, nextId));
      return expr;
    case 'structExpr':
      for (const e of k.value.entries) {
        if (e.keyKind.case === 'mapKey') rewrite(e.keyKind.value, nextId);
        if (e.value) rewrite(e.value, nextId);
      }
      return expr;
    case 'comprehensionExpr': {
      const c = k.value;
      for (const part of [c.iterRange, c.accuInit, c.loopCondition, c.loopStep, c.result]) if (part) rewrite(part, nextId);
      if (c.loopStep) {
        c.loopStep = node(nextId(), { case: 'callExpr', value: { $typeName: 'cel.expr.Expr.Call', function: costStepFunction, args: [c.loopStep] } as never });
      }
      return expr;
    }
    case 'callExpr': {
      const call = k.value;
      if (call.target && isTwoVarMacro(call.function, call.args)) {
        expr.exprKind = expandTwoVar(call.target, call.function, call.args, nextId);
        return rewrite(expr, nextId);
      }
      if (call.target) rewrite(call.target, nextId);
      call.args.forEach((a) => rewrite(a, nextId));
      if (call.function === '_[_]' && call.args.length === 2) {
        const key = call.args[1]!;
        const wrapped = key.exprKind.case === 'callExpr' && key.exprKind.value.function === optIndexFunction && key.exprKind.value.args.length === 1 && !key.exprKind.value.target;
        if (wrapped || isOptCall(call.args[0])) {
          const k2 = wrapped ? (key.exprKind.value as { args: Expr[] }).args[0]! : key;
          expr.exprKind = { case: 'callExpr', value: { ...call, function: optIndexCall, args: [call.args[0]!, k2] } as never };
          return expr;
        }
      }
      const target = call.target?.exprKind;
      if (call.function === 'bind' && target?.case === 'identExpr' && target.value.name === 'cel' && call.args.length === 3) {
        const v = call.args[0]!.exprKind;
        if (v.case === 'identExpr') {
          expr.exprKind = {
            case: 'comprehensionExpr',
            value: {
              $typeName: 'cel.expr.Expr.Comprehension',
              iterVar: '#unused',
              iterVar2: '',
              iterRange: node(nextId(), { case: 'listExpr', value: { $typeName: 'cel.expr.Expr.CreateList', elements: [], optionalIndices: [] } as never }),
              accuVar: v.value.name,
              accuInit: call.args[1],
              loopCondition: node(nextId(), { case: 'constExpr', value: { $typeName: 'cel.expr.Constant', constantKind: { case: 'boolValue', value: false } } as never }),
              loopStep: node(nextId(), { case: 'identExpr', value: { $typeName: 'cel.expr.Expr.Ident', name: v.value.name } as never }),
              result: call.args[2],
            } as never,
          };
        }
      }
      return expr;
    }
    default:
      return expr;
  }
}

/** The largest id in expr (new nodes are numbered after it). */
export function maxId(expr: Expr | undefined): bigint {
  if (!expr) return 0n;
  let max = expr.id;
  const see = (e: Expr | undefined) => {
    const m = maxId(e);
    if (m > max) max = m;
  };
  const k = expr.exprKind;
  switch (k.case) {
    case 'selectExpr':
      see(k.value.operand);
      break;
    case 'listExpr':
      k.value.elements.forEach(see);
      break;
    case 'structExpr':
      for (const e of k.value.entries) {
        if (e.keyKind.case === 'mapKey') see(e.keyKind.value);
        see(e.value);
      }
      break;
    case 'comprehensionExpr':
      for (const p of [k.value.iterRange, k.value.accuInit, k.value.loopCondition, k.value.loopStep, k.value.result]) see(p);
      break;
    case 'callExpr':
      see(k.value.target);
      k.value.args.forEach(see);
      break;
    default:
      break;
  }
  return max;
}

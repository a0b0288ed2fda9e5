/**
 * Compile-time checks of a parsed expression, the part of cel-go's type checker that needs no
 * schema: every identifier must be a declared variable, a comprehension variable or a type name,
 * every function must exist, and a call must match one of its overloads by form (global or
 * receiver) and argument count. Errors are rendered as cel-go renders them:
 * "ERROR: <input>:1:1: undeclared reference to 'x' (in container '')" followed by the source line
 * and a caret.
 */
import type { Expr, SourceInfo } from '@bufbuild/cel-spec/cel/expr/syntax_pb.js';
import { costStepFunction } from './ast.js';

/** One overload's shape: called on a receiver or not, with how many arguments. */
export interface OverloadShape {
  readonly receiver: boolean;
  readonly args: number;
}

/** What the checker knows of the environment. */
export interface CheckEnv {
  readonly variables: ReadonlySet<string>;
  /** Overload shapes by function name (qualified names such as "sets.contains" included). */
  readonly functions: ReadonlyMap<string, readonly OverloadShape[]>;
  /** Known message types, usable as type values. */
  readonly isType?: TypeLookup;
}

const typeIdents = new Set(['int', 'uint', 'double', 'bool', 'string', 'bytes', 'list', 'map', 'null_type', 'type', 'dyn']);

/** Whether a qualified name is a type the environment knows (net.IP, google.protobuf.Timestamp, ...). */
export type TypeLookup = (name: string) => boolean;
// Calls the planner evaluates itself (logic, indexing, conditionals) rather than through the resolver.
const builtinCalls = new Set(['_&&_', '_||_', '_?_:_', '_[_]', '_[?_]', '_?._', '@not_strictly_false', '__not_strictly_false__', costStepFunction]);

interface Issue {
  readonly id: bigint;
  readonly message: string;
}

/** The dotted name an ident/select chain spells ("a.b.c"), or undefined. */
function qualifiedName(e: Expr | undefined): string | undefined {
  if (!e) return undefined;
  if (e.exprKind.case === 'identExpr') return e.exprKind.value.name;
  if (e.exprKind.case === 'selectExpr' && !e.exprKind.value.testOnly) {
    const head = qualifiedName(e.exprKind.value.operand);
    return head === undefined ? undefined : `${head}.${e.exprKind.value.field}`;
  }
  return undefined;
}

/** Checks expr; returns the issues found, in source order. */
export function checkExpr(expr: Expr, env: CheckEnv): Issue[] {
  const issues: Issue[] = [];
  const walk = (e: Expr | undefined, scope: ReadonlySet<string>): void => {
    if (!e) return;
    const k = e.exprKind;
    switch (k.case) {
      case 'identExpr': {
        const name = k.value.name;
        if (!scope.has(name) && !env.variables.has(name) && !typeIdents.has(name) && !env.isType?.(name)) {
          issues.push({ id: e.id, message: `undeclared reference to '${name}' (in container '')` });
        }
        return;
      }
      case 'selectExpr': {
        const q = qualifiedName(e);
        if (q !== undefined && (env.variables.has(q) || env.isType?.(q))) return;
        walk(k.value.operand, scope);
        return;
      }
      case 'listExpr':
        k.value.elements.forEach((x) => walk(x, scope));
        return;
      case 'structExpr':
        for (const entry of k.value.entries) {
          if (entry.keyKind.case === 'mapKey') walk(entry.keyKind.value, scope);
          walk(entry.value, scope);
        }
        return;
      case 'comprehensionExpr': {
        const c = k.value;
        walk(c.iterRange, scope);
        walk(c.accuInit, scope);
        const inner = new Set(scope);
        inner.add(c.accuVar);
        walk(c.result, inner);
        inner.add(c.iterVar);
        if (c.iterVar2) inner.add(c.iterVar2);
        walk(c.loopCondition, inner);
        walk(c.loopStep, inner);
        return;
      }
      case 'callExpr': {
        const call = k.value;
        const fn = call.function;
        if (builtinCalls.has(fn)) {
          walk(call.target, scope);
          call.args.forEach((a) => walk(a, scope));
          return;
        }
        const qualified = call.target ? qualifiedName(call.target) : undefined;
        if (qualified !== undefined && !scope.has(qualified.split('.')[0]!) && env.functions.has(`${qualified}.${fn}`)) {
          checkShape(e.id, `${qualified}.${fn}`, false, call.args.length);
          call.args.forEach((a) => walk(a, scope));
          return;
        }
        walk(call.target, scope);
        call.args.forEach((a) => walk(a, scope));
        checkShape(e.id, fn, call.target !== undefined, call.args.length);
        return;
      }
      default:
        return;
    }
  };
  const checkShape = (id: bigint, fn: string, receiver: boolean, args: number): void => {
    const shapes = env.functions.get(fn);
    if (!shapes) {
      issues.push({ id, message: `undeclared reference to '${fn}' (in container '')` });
      return;
    }
    if (!shapes.some((s) => s.receiver === receiver && s.args === args)) {
      const argList = new Array(args).fill('dyn').join(', ');
      issues.push({ id, message: `found no matching overload for '${fn}' applied to '${receiver ? 'dyn.' : ''}(${argList})'` });
    }
  };
  walk(expr, new Set());
  return issues;
}

/** cel-go's rendering of issues: "ERROR: <input>:line:col: message\n | source line\n | ...^", joined by newlines. */
export function formatIssues(source: string, issues: readonly Issue[], info: SourceInfo | undefined, mapOffset: (offset: number) => number = (o) => o): string {
  return issues.map((i) => formatIssue(source, i.message, mapOffset(info?.positions[i.id.toString()] ?? 0))).join('\n');
}

/** One issue at a source offset, as cel-go prints it. */
export function formatIssue(source: string, message: string, offset: number): string {
  const before = source.slice(0, offset);
  const line = before.split('\n').length;
  const lineStart = before.lastIndexOf('\n') + 1;
  const col = offset - lineStart;
  const text = source.split('\n')[line - 1] ?? '';
  return `ERROR: <input>:${line}:${col + 1}: ${message}\n | ${text}\n | ${'.'.repeat(col)}^`;
}

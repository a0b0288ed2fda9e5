/**
 * The CEL conformance suite (@bufbuild/cel-spec's simple tests) run through Kubernetes' CEL
 * environment. Sections that do not apply to Kubernetes' environment are skipped by name with the
 * reason; within the rest, tests on test-only proto messages are skipped too. The run prints its
 * counts and fails when fewer tests pass than the pinned count (a regression).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { celList, celMap, celUint, isCelUint, type CelInput } from '@bufbuild/cel';
import { getConformanceSuite, type IncrementalTestSuite } from '@bufbuild/cel-spec/testdata/tests.js';
import type { Value } from '@bufbuild/cel-spec/cel/expr/value_pb.js';
import { CelCompileError, compileExpression } from './expression.js';

/** Sections Kubernetes' environment does not have, with why. */
const skippedSections: Readonly<Record<string, string>> = {
  proto2: 'test-only proto2 messages (Kubernetes expressions see JSON objects)',
  proto3: 'test-only proto3 messages (Kubernetes expressions see JSON objects)',
  proto2_ext: 'proto2 extensions',
  enums: 'proto enums of test-only messages',
  wrappers: 'protobuf wrapper fields of test-only messages',
  dynamic: 'protobuf dynamic values (Any, Struct, wrappers) of test-only messages',
  type_deductions: 'checker type deduction output (no checked-AST comparison here)',
  namespace: 'expression containers (Kubernetes compiles with no container)',
  encoders_ext: 'base64 encoders extension (not in Kubernetes\' environment)',
  math_ext: 'math extension (not in Kubernetes\' environment)',
  block_ext: 'cel.block extension (not in Kubernetes\' environment)',
  unknowns: 'partial evaluation with unknowns (not used by Kubernetes)',
};

// Raise this when the environment passes more; a drop below it is a regression.
const pinnedPassCount = 1361;

function toInput(v: Value): CelInput | undefined {
  const k = v.kind;
  switch (k.case) {
    case 'nullValue':
      return null;
    case 'boolValue':
    case 'stringValue':
    case 'doubleValue':
    case 'bytesValue':
      return k.value;
    case 'int64Value':
      return k.value;
    case 'uint64Value':
      return celUint(k.value);
    case 'listValue': {
      const items = k.value.values.map(toInput);
      return items.includes(undefined) ? undefined : celList(items as CelInput[]);
    }
    case 'mapValue': {
      const m = new Map<bigint | string | boolean | ReturnType<typeof celUint>, CelInput>();
      for (const e of k.value.entries) {
        const key = e.key ? toInput(e.key) : undefined;
        const val = e.value ? toInput(e.value) : undefined;
        if (key === undefined || val === undefined || typeof key === 'number' || key === null || typeof key === 'object' && !isCelUint(key)) return undefined;
        m.set(key as string, val);
      }
      return celMap(m);
    }
    default:
      return undefined;
  }
}

/** Expected Value as evaluate() reports results (uints as bigint, maps as objects, types by name). */
function toJs(v: Value): unknown {
  const k = v.kind;
  switch (k.case) {
    case 'nullValue':
      return null;
    case 'uint64Value':
      return k.value;
    case 'listValue':
      return k.value.values.map(toJs);
    case 'mapValue': {
      const out: Record<string, unknown> = {};
      for (const e of k.value.entries) out[String(e.key ? toJs(e.key) : '')] = e.value ? toJs(e.value) : undefined;
      return out;
    }
    case 'typeValue':
      return { type: k.value };
    case 'objectValue':
    case 'enumValue':
      return undefined;
    default:
      return k.value;
  }
}

function normalize(v: unknown): unknown {
  if (v && typeof v === 'object' && 'kind' in v && 'name' in v && typeof (v as { name: unknown }).name === 'string' && !(v instanceof Uint8Array) && !Array.isArray(v)) {
    return { type: (v as { name: string }).name };
  }
  return v;
}

function same(a: unknown, b: unknown): boolean {
  a = normalize(a);
  if (typeof a === 'number' && typeof b === 'number') return Object.is(a, b) || a === b || (Number.isNaN(a) && Number.isNaN(b));
  if (a instanceof Uint8Array && b instanceof Uint8Array) return a.length === b.length && a.every((x, i) => x === b[i]);
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return a === b;
}

interface Counts {
  run: number;
  passed: number;
  skipped: number;
  failures: string[];
  skippedSections: string[];
}

function runSuite(suite: IncrementalTestSuite, section: string, counts: Counts): void {
  for (const t of suite.tests) {
    const o = t.original;
    const name = `${section}/${t.name}`;
    const rm = o.resultMatcher;
    const bindings: Record<string, CelInput> = {};
    let skip = o.checkOnly || o.disableMacros || o.container !== '' || rm.case === 'unknown' || rm.case === 'anyUnknowns' || /TestAllTypes|google\.protobuf|cel\.expr/.test(o.expr);
    for (const [k, ev] of Object.entries(o.bindings)) {
      const value = ev.kind.case === 'value' ? toInput(ev.kind.value) : undefined;
      if (value === undefined || typeof value === 'number') skip = true;
      else bindings[k] = value;
    }
    if (rm.case === 'value' && toJs(rm.value) === undefined && rm.value.kind.case !== 'nullValue') skip = true;
    if (skip) {
      counts.skipped++;
      continue;
    }
    counts.run++;
    const variables = [...new Set([...Object.keys(bindings), ...o.typeEnv.map((d) => d.name)])];
    let outcome: { ok: true; value: unknown } | { ok: false; error: string };
    try {
      outcome = { ok: true, value: compileExpression(o.expr, { variables, check: !o.disableCheck }).evaluate(bindings) };
    } catch (err) {
      outcome = { ok: false, error: err instanceof CelCompileError ? `compile: ${err.message}` : (err as Error).message };
    }
    let pass: boolean;
    switch (rm.case) {
      case 'evalError':
      case 'anyEvalErrors':
        pass = !outcome.ok;
        break;
      case 'value':
        pass = outcome.ok && same(outcome.value, toJs(rm.value));
        break;
      case undefined:
        pass = outcome.ok && outcome.value === true;
        break;
      default:
        pass = false;
    }
    if (pass) counts.passed++;
    else counts.failures.push(`${name}: ${o.expr} -> ${outcome.ok ? String(outcome.value) : outcome.error}`);
  }
  for (const s of suite.suites) runSuite(s, `${section}/${s.name}`, counts);
}

test('CEL conformance suite through the Kubernetes environment', () => {
  const counts: Counts = { run: 0, passed: 0, skipped: 0, failures: [], skippedSections: [] };
  for (const section of getConformanceSuite().suites) {
    const reason = skippedSections[section.name];
    if (reason) {
      let n = 0;
      const count = (s: IncrementalTestSuite): void => {
        n += s.tests.length;
        s.suites.forEach(count);
      };
      count(section);
      counts.skipped += n;
      counts.skippedSections.push(`${section.name} (${n}): ${reason}`);
      continue;
    }
    runSuite(section, section.name, counts);
  }
  console.log(`CEL conformance: run ${counts.run}, passed ${counts.passed}, failed ${counts.run - counts.passed}, skipped ${counts.skipped}`);
  console.log(`skipped sections:\n  ${counts.skippedSections.join('\n  ')}`);
  if (process.env.CEL_CONFORMANCE_VERBOSE) console.log(counts.failures.join('\n'));
  assert.ok(counts.passed >= pinnedPassCount, `conformance regression: ${counts.passed} passed, pinned ${pinnedPassCount}`);
});

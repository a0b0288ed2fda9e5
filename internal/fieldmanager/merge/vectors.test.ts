/**
 * Replays the structured-merge-diff v4.6.0 merge test vectors (test/vectors/server-side-apply.json,
 * extracted from merge/*_test.go) against the Updater: each case runs its operations against an
 * initially absent object and compares the live object, the managers' field sets and versions,
 * and the conflicts, as the Go fixture (internal/fixture/state.go) does. The version converters of
 * the multi-version cases are implemented here as the file's notes describe them.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { excludeSetFilter, FieldSet, type FieldFilter } from '../field-set.js';
import { setToFieldsV1 } from '../fields-v1.js';
import { fieldElement, keyElement, pathToString, serializePathElement, type Path, type PathElement } from '../path-element.js';
import { deducedSchema, deducedTypeRef, schemaFromDocument, type Schema, type TypeRef } from '../schema.js';
import { isSame } from '../typed/compare.js';
import { TypedValue } from '../typed/typed-value.js';
import { isMap, type Value, type ValueMap } from '../value.js';
import { conflictsFromManagers, ConflictsError } from './conflicts.js';
import { managedFieldsDifference, versionedSet, type ManagedFields } from './managed-fields.js';
import { MissingVersionError, Updater, type Converter } from './updater.js';

type JsonPathElement = { field?: string; key?: Record<string, Value>; value?: Value; index?: number };

interface ExpectedPaths {
  apiVersion?: string;
  applied?: boolean;
  paths: JsonPathElement[][];
  pathStrings: string[][];
  fieldsV1: unknown;
}

interface Op {
  op: 'apply' | 'forceApply' | 'update' | 'extractApply' | 'changeSchema';
  manager?: string;
  apiVersion?: string;
  object?: Value;
  conflicts?: Array<{ manager: string; path: JsonPathElement[]; pathStrings: string[] }>;
  schema?: string;
}

interface VectorCase {
  name: string;
  test: string;
  schema: { parser?: string; deduced?: boolean };
  converter: { kind: 'identity' | 'renameVersionSuffix' | 'reliantFields' };
  ops: Op[];
  expectedObject?: Value;
  expectedObjectAPIVersion?: string;
  expectedManagedFields?: Record<string, ExpectedPaths>;
  ignoredFields?: Record<string, ExpectedPaths>;
  ignoreFilterExclude?: Record<string, ExpectedPaths>;
  expectError?: boolean;
}

interface VectorFile {
  schemas: Record<string, { selection: { kind: 'fixedType' | 'typeNamedByAPIVersion'; typeName?: string }; types: unknown }>;
  cases: VectorCase[];
  conflictMessages: Array<{ test: string; managers: Record<string, ExpectedPaths>; expectedError?: string; expectedSet?: ExpectedPaths }>;
}

/** Runs the vectors expect to fail here, each with the reason; none today. */
const knownFailures: Readonly<Record<string, string>> = {};

function loadVectors(name: string): VectorFile {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'test', 'vectors', name);
    if (existsSync(candidate)) return JSON.parse(readFileSync(candidate, 'utf8')) as VectorFile;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`test/vectors/${name} not found`);
    dir = parent;
  }
}

function toPathElement(j: JsonPathElement): PathElement {
  if (j.field !== undefined) return fieldElement(j.field);
  if (j.key !== undefined) return keyElement(Object.entries(j.key));
  if (j.index !== undefined) return { kind: 'index', index: j.index };
  return { kind: 'value', value: j.value! };
}

function toSet(e: ExpectedPaths): FieldSet {
  return FieldSet.of(...e.paths.map((p) => p.map(toPathElement)));
}

/** How a case picks the type of an object of a version. */
interface Typing {
  schema: Schema;
  typeOf(version: string): TypeRef;
}

function renameSuffix(v: Value, from: string, to: string): Value {
  if (Array.isArray(v)) return v.map((x) => renameSuffix(x, from, to));
  if (!isMap(v)) return v;
  const out: ValueMap = {};
  for (const [k, x] of Object.entries(v)) out[k.endsWith(from) ? k.slice(0, k.length - from.length) + to : k] = renameSuffix(x, from, to);
  return out;
}

function renameField(v: Value, from: string, to: string): Value {
  if (!isMap(v)) return v;
  const out: ValueMap = {};
  for (const [k, x] of Object.entries(v)) out[k === from ? to : k] = x;
  return out;
}

function converterFor(c: VectorCase, typing: () => Typing): Converter {
  switch (c.converter.kind) {
    case 'identity':
      return {
        convert(tv, version) {
          if (version === '') throw new Error('cannot convert to an empty version');
          return tv;
        },
      };
    case 'renameVersionSuffix':
      return {
        convert(tv, version) {
          const t = typing();
          if (!t.schema.has(version)) throw new MissingVersionError(version);
          const from = tv.typeRef.namedType!;
          if (from === version) return tv;
          return TypedValue.of(t.schema, t.typeOf(version), renameSuffix(tv.value, from, version), { allowDuplicates: true });
        },
      };
    case 'reliantFields':
      return {
        convert(tv, version) {
          const t = typing();
          const from = tv.typeRef.namedType!;
          if (from === version) return tv;
          let value = tv.value;
          if (version === 'v1') {
            if (!isMap(value) || !('required_field_bar' in value)) throw new Error('missing required field');
            value = renameField(value, 'required_field_bar', 'field_foo_rely_on_bar');
          } else if (version === 'v2') {
            value = renameField(value, 'field_foo_rely_on_bar', 'required_field_bar');
          } else {
            throw new MissingVersionError(version);
          }
          return TypedValue.of(t.schema, t.typeOf(version), value, { allowDuplicates: true });
        },
      };
  }
}

/** The fixture's State: the live object, the managers, and the current schema. */
class State {
  live: TypedValue | undefined;
  managers: ManagedFields = new Map();

  constructor(
    public typing: Typing,
    readonly updater: Updater,
    readonly converter: Converter,
  ) {}

  private init(version: string): TypedValue {
    this.live ??= new TypedValue(this.typing.schema, this.typing.typeOf(version), null);
    return this.converter.convert(this.live, version);
  }

  parse(op: Op, allowDuplicates: boolean): TypedValue {
    return TypedValue.of(this.typing.schema, this.typing.typeOf(op.apiVersion!), op.object ?? null, { allowDuplicates });
  }

  apply(tv: TypedValue, version: string, manager: string, force: boolean): void {
    const live = this.init(version);
    const res = this.updater.apply(live, tv, version, this.managers, manager, force);
    this.managers = res.managers;
    if (res.object) this.live = this.converter.convert(res.object, version);
  }

  update(tv: TypedValue, version: string, manager: string): void {
    this.live = this.init(version);
    this.managers = this.updater.updateFields(this.live, tv, version, this.managers, manager);
    this.live = tv;
  }

  extractApply(tv: TypedValue, version: string, manager: string): void {
    const live = this.init(version);
    const owned = this.managers.get(manager)?.set ?? new FieldSet();
    const extracted = live.extractItems(owned.leaves());
    this.apply(extracted.merge(tv), version, manager, true);
  }
}

function filtersOf(map: Record<string, ExpectedPaths> | undefined): Map<string, FieldFilter> | undefined {
  if (!map) return undefined;
  return new Map(Object.entries(map).map(([version, e]) => [version, excludeSetFilter(toSet(e))]));
}

function describeManagers(m: ManagedFields): string {
  return [...m].map(([name, vs]) => `${name}@${vs.apiVersion}: ${JSON.stringify(setToFieldsV1(vs.set))}`).join('\n');
}

function runCase(file: VectorFile, c: VectorCase): void {
  const typingFor = (name: string | undefined): Typing => {
    if (c.schema.deduced || name === undefined) return { schema: deducedSchema, typeOf: () => deducedTypeRef };
    const def = file.schemas[name]!;
    const schema = schemaFromDocument(def.types);
    const sel = def.selection;
    return { schema, typeOf: (version) => ({ namedType: sel.kind === 'fixedType' ? sel.typeName! : version }) };
  };
  let typing = typingFor(c.schema.parser);
  const converter = converterFor(c, () => typing);
  const ignore = filtersOf(c.ignoredFields) ?? filtersOf(c.ignoreFilterExclude);
  const updater = new Updater(ignore ? { converter, ignoreFilter: ignore } : { converter });
  const state = new State(typing, updater, converter);

  let failed: unknown;
  try {
    for (const op of c.ops) {
      if (op.op === 'changeSchema') {
        typing = typingFor(op.schema);
        state.typing = typing;
        if (state.live) state.live = TypedValue.of(typing.schema, state.live.typeRef, state.live.value, { allowDuplicates: true });
        continue;
      }
      const version = op.apiVersion!;
      const manager = op.manager!;
      const expected = op.conflicts && op.conflicts.length > 0 ? op.conflicts : undefined;
      try {
        if (op.op === 'update') state.update(state.parse(op, true), version, manager);
        else if (op.op === 'extractApply') state.extractApply(state.parse(op, false), version, manager);
        else state.apply(state.parse(op, false), version, manager, op.op === 'forceApply');
        if (expected) assert.fail(`${op.op} by ${manager}: expected conflicts ${JSON.stringify(expected.map((x) => x.pathStrings))}, got none`);
      } catch (err) {
        if (!(err instanceof ConflictsError) || !expected) throw err;
        const got = err.conflicts.map((x) => `${x.manager} ${x.path.map(serializePathElement).join('/')}`).sort();
        const want = expected.map((x) => `${x.manager} ${x.path.map(toPathElement).map(serializePathElement).join('/')}`).sort();
        assert.deepEqual(got, want, 'conflicts');
      }
    }
  } catch (err) {
    failed = err;
  }
  if (c.expectError) {
    assert.ok(failed, 'expected an operation to fail');
    return;
  }
  if (failed) throw failed;

  if (c.expectedObject !== undefined) {
    const version = c.expectedObjectAPIVersion!;
    const live = converter.convert(state.live ?? new TypedValue(typing.schema, typing.typeOf(version), null), version);
    const want = TypedValue.of(typing.schema, typing.typeOf(version), c.expectedObject, { allowDuplicates: true });
    const cmp = live.compare(want);
    assert.ok(isSame(cmp), `live object differs: ${JSON.stringify(live.value)} vs expected ${JSON.stringify(c.expectedObject)}`);
  }
  if (c.expectedManagedFields) {
    const expected: ManagedFields = new Map();
    for (const [manager, e] of Object.entries(c.expectedManagedFields)) {
      const set = toSet(e);
      // The file's FieldsV1 and element strings are kube's encodings of the same set.
      assert.deepEqual(setToFieldsV1(set), e.fieldsV1, `FieldsV1 encoding of ${manager}`);
      assert.equal(JSON.stringify(setToFieldsV1(set)), JSON.stringify(e.fieldsV1), `FieldsV1 key order of ${manager}`);
      assert.deepEqual(e.paths.map((p) => p.map(toPathElement).map(serializePathElement)), e.pathStrings, `element strings of ${manager}`);
      expected.set(manager, versionedSet(set, e.apiVersion ?? '', e.applied ?? false));
    }
    const diff = managedFieldsDifference(state.managers, expected);
    assert.equal(diff.size, 0, `managers differ:\n${describeManagers(state.managers)}\nexpected:\n${describeManagers(expected)}`);
  }
}

const file = loadVectors('server-side-apply.json');

describe('structured-merge-diff v4.6.0 merge vectors', () => {
  const seen = new Map<string, number>();
  for (const c of file.cases) {
    const base = `${c.test}/${c.name}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    const id = n > 1 ? `${base}#${n}` : base;
    const reason = knownFailures[id];
    it(id, reason ? { skip: reason } : {}, () => runCase(file, c));
  }
});

describe('structured-merge-diff v4.6.0 conflict messages', () => {
  for (const m of file.conflictMessages) {
    it(m.test, () => {
      const managers: ManagedFields = new Map(Object.entries(m.managers).map(([name, e]) => [name, versionedSet(toSet(e), e.apiVersion ?? 'v1', false)]));
      const err = new ConflictsError(conflictsFromManagers(managers));
      if (m.expectedError !== undefined) assert.equal(err.message, m.expectedError);
      if (m.expectedSet) assert.ok(err.toSet().equals(toSet(m.expectedSet)), `set ${pathToString([] as Path)}`);
    });
  }
});

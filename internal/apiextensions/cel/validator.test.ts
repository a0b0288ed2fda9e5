import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/meta/types.js';
import { fieldErrorMessage } from '../../validation/field-error.js';
import type { JSONSchemaProps, ValidationRule } from '../interface.js';
import { compileCelValidator } from './index.js';
import { newCelValidator } from './validator.js';

const str: JSONSchemaProps = { type: 'string' };
const int: JSONSchemaProps = { type: 'integer' };

/** A CR schema whose spec has the given properties and rules. */
function crd(properties: Record<string, JSONSchemaProps>, rules: ValidationRule[] = [], extra: Partial<JSONSchemaProps> = {}): JSONSchemaProps {
  return { type: 'object', properties: { spec: { type: 'object', properties, 'x-kubernetes-validations': rules, ...extra } } };
}

function cr(spec: unknown, name = 'x'): KubeObject {
  return { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name, namespace: 'default', labels: { a: 'b' } }, spec } as KubeObject;
}

function run(schema: JSONSchemaProps, obj: KubeObject, old?: KubeObject, ratcheting = false): string[] {
  const v = compileCelValidator(schema);
  assert.ok(v, 'validator');
  return v.validate(obj, old, { ratcheting }).map(fieldErrorMessage);
}

describe('CEL validator: rules at run time', () => {
  const table: { name: string; schema: JSONSchemaProps; spec: unknown; want: string[] }[] = [
    { name: 'passing rule', schema: crd({ a: int }, [{ rule: 'self.a > 1' }]), spec: { a: 2 }, want: [] },
    { name: 'default message', schema: crd({ a: int }, [{ rule: ' self.a > 1 ' }]), spec: { a: 1 }, want: ['spec: Invalid value: "object": failed rule: self.a > 1'] },
    { name: 'message trimmed', schema: crd({ a: int }, [{ rule: 'self.a > 1', message: ' a too small ' }]), spec: { a: 1 }, want: ['spec: Invalid value: "object": a too small'] },
    {
      name: 'messageExpression',
      schema: crd({ a: int }, [{ rule: 'self.a > 1', messageExpression: "'a is ' + string(self.a)" }]),
      spec: { a: 1 },
      want: ['spec: Invalid value: "object": a is 1'],
    },
    {
      name: 'messageExpression empty result falls back to message',
      schema: crd({ a: int }, [{ rule: 'self.a > 1', message: 'm', messageExpression: "' '" }]),
      spec: { a: 1 },
      want: ['spec: Invalid value: "object": m'],
    },
    {
      name: 'messageExpression error falls back to the default',
      schema: crd({ a: int, b: str }, [{ rule: 'self.a > 1', messageExpression: 'self.b' }]),
      spec: { a: 1 },
      want: ['spec: Invalid value: "object": failed rule: self.a > 1'],
    },
    {
      name: 'messageExpression with a line break falls back',
      schema: crd({ a: int }, [{ rule: 'self.a > 1', messageExpression: "'x\\ny'" }]),
      spec: { a: 1 },
      want: ['spec: Invalid value: "object": failed rule: self.a > 1'],
    },
    { name: 'reason Forbidden', schema: crd({ a: int }, [{ rule: 'self.a > 1', reason: 'FieldValueForbidden', message: 'no' }]), spec: { a: 1 }, want: ['spec: Forbidden: no'] },
    { name: 'reason Required', schema: crd({ a: int }, [{ rule: 'has(self.b)', reason: 'FieldValueRequired', message: 'b needed' }], {}), spec: { a: 1 }, want: ['spec: Required value: b needed'] },
    { name: 'reason Duplicate', schema: crd({ a: int }, [{ rule: 'self.a > 1', reason: 'FieldValueDuplicate', message: 'dup' }]), spec: { a: 1 }, want: ['spec: Duplicate value: "object"'] },
    { name: 'reason Invalid', schema: crd({ a: int }, [{ rule: 'self.a > 1', reason: 'FieldValueInvalid' }]), spec: { a: 1 }, want: ['spec: Invalid value: "object": failed rule: self.a > 1'] },
    { name: 'fieldPath', schema: crd({ a: int }, [{ rule: 'self.a > 1', fieldPath: '.a' }]), spec: { a: 1 }, want: ['spec.a: Invalid value: "object": failed rule: self.a > 1'] },
    {
      name: 'fieldPath with a quoted key into a map',
      schema: crd({ m: { type: 'object', additionalProperties: str } }, [{ rule: "self.m['k.x'] == 'v'", fieldPath: ".m['k.x']" }]),
      spec: { m: { 'k.x': 'w' } },
      want: ["spec.m[k.x]: Invalid value: \"object\": failed rule: self.m['k.x'] == 'v'"],
    },
    { name: 'runtime error', schema: crd({ a: int, b: int }, [{ rule: 'self.b > 1' }]), spec: { a: 1 }, want: ['spec: Invalid value: "object": no such key: b evaluating rule: self.b > 1'] },
    {
      name: 'rules on list items and map values',
      schema: crd({ l: { type: 'array', items: { ...str, 'x-kubernetes-validations': [{ rule: 'self.size() < 3' }] } }, m: { type: 'object', additionalProperties: { ...int, 'x-kubernetes-validations': [{ rule: 'self >= 0' }] } } }),
      spec: { l: ['a', 'abcd'], m: { ok: 1, bad: -1 } },
      want: ['spec.l[1]: Invalid value: "string": failed rule: self.size() < 3', 'spec.m[bad]: Invalid value: "integer": failed rule: self >= 0'],
    },
    { name: 'numbers are doubles', schema: crd({ r: { type: 'number' } }, [{ rule: 'self.r * 1.5 < 2.0' }]), spec: { r: 1 }, want: [] },
    { name: 'int-or-string is dyn', schema: crd({ p: { 'x-kubernetes-int-or-string': true } }, [{ rule: "type(self.p) == string ? self.p.endsWith('%') : self.p < 10" }]), spec: { p: '5' }, want: ['spec: Invalid value: "object": failed rule: type(self.p) == string ? self.p.endsWith(\'%\') : self.p < 10'] },
    { name: 'date-time is a timestamp', schema: crd({ t: { type: 'string', format: 'date-time' } }, [{ rule: "self.t < timestamp('2030-01-01T00:00:00Z')" }]), spec: { t: '2024-05-01T10:00:00Z' }, want: [] },
    { name: 'duration format', schema: crd({ d: { type: 'string', format: 'duration' } }, [{ rule: "self.d <= duration('1h')" }]), spec: { d: '2h30m' }, want: ["spec: Invalid value: \"object\": failed rule: self.d <= duration('1h')"] },
    { name: 'preserve-unknown-fields is dyn', schema: crd({ x: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } }, [{ rule: 'self.x.anything == 1' }]), spec: { x: { anything: 1 } }, want: [] },
    { name: 'null values are not validated', schema: crd({ a: { ...int, nullable: true, 'x-kubernetes-validations': [{ rule: 'self > 5' }] } }), spec: { a: null }, want: [] },
    {
      name: 'escaped property names',
      schema: crd({ 'x-y': int, namespace: int }, [{ rule: 'self.x__dash__y == self.__namespace__' }]),
      spec: { 'x-y': 1, namespace: 2 },
      want: ['spec: Invalid value: "object": failed rule: self.x__dash__y == self.__namespace__'],
    },
    {
      name: 'embedded resource sees apiVersion, kind and metadata.name',
      schema: crd({ tpl: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true, 'x-kubernetes-validations': [{ rule: "self.kind == 'Pod' && self.metadata.name.startsWith('p')" }] } }),
      spec: { tpl: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'q' } } },
      want: ["spec.tpl: Invalid value: \"object\": failed rule: self.kind == 'Pod' && self.metadata.name.startsWith('p')"],
    },
    {
      name: 'allOf rules run on the node',
      schema: crd({ a: int }, [], { allOf: [{ 'x-kubernetes-validations': [{ rule: 'self.a != 3', message: 'not 3' }] }] }),
      spec: { a: 3 },
      want: ['spec: Invalid value: "object": not 3'],
    },
  ];
  for (const t of table) {
    it(t.name, () => assert.deepEqual(run(t.schema, cr(t.spec)), t.want));
  }

  it('root rules see apiVersion, kind and metadata.name only', () => {
    const schema: JSONSchemaProps = { type: 'object', 'x-kubernetes-validations': [{ rule: "self.metadata.name.startsWith('ok') && self.kind == 'Widget'" }, { rule: "!has(self.metadata.labels)" }], properties: { spec: { type: 'object' } } };
    assert.deepEqual(run(schema, cr({}, 'ok-1')), []);
    assert.deepEqual(run(schema, cr({}, 'bad')), ['<nil>: Invalid value: "object": failed rule: self.metadata.name.startsWith(\'ok\') && self.kind == \'Widget\'']);
  });

  it('returns undefined for a schema without rules', () => {
    assert.equal(compileCelValidator(crd({ a: int })), undefined);
  });

  it('never mutates the object', () => {
    const obj = cr({ a: 1, t: '2024-05-01T10:00:00Z' });
    const before = JSON.stringify(obj);
    run(crd({ a: int, t: { type: 'string', format: 'date-time' } }, [{ rule: 'self.a > 1' }]), obj);
    assert.equal(JSON.stringify(obj), before);
  });
});

describe('CEL validator: transition rules', () => {
  const immutable = crd({ a: int }, [{ rule: 'self.a == oldSelf.a', message: 'a is immutable' }]);

  it('skips transition rules on create', () => {
    assert.deepEqual(run(immutable, cr({ a: 1 })), []);
  });

  it('runs them on update', () => {
    assert.deepEqual(run(immutable, cr({ a: 2 }), cr({ a: 1 })), ['spec: Invalid value: "object": a is immutable']);
    assert.deepEqual(run(immutable, cr({ a: 1 }), cr({ a: 1 })), []);
  });

  it('skips them where the old value has no correlated node', () => {
    const schema = crd({ s: { type: 'object', properties: { a: int }, 'x-kubernetes-validations': [{ rule: 'self.a == oldSelf.a' }] } });
    assert.deepEqual(run(schema, cr({ s: { a: 2 } }), cr({})), []);
  });

  it('correlates map-list items by key, not set or atomic list items', () => {
    const item: JSONSchemaProps = { type: 'object', required: ['name'], properties: { name: str, v: int }, 'x-kubernetes-validations': [{ rule: 'self.v >= oldSelf.v', message: 'v decreased' }] };
    const mapList = crd({ l: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: item } });
    const old = cr({ l: [{ name: 'a', v: 5 }, { name: 'b', v: 1 }] });
    assert.deepEqual(run(mapList, cr({ l: [{ name: 'b', v: 1 }, { name: 'a', v: 4 }, { name: 'c', v: 0 }] }), old), ['spec.l[1]: Invalid value: "object": v decreased']);
    const atomic = crd({ l: { type: 'array', items: item } });
    assert.deepEqual(run(atomic, cr({ l: [{ name: 'a', v: 4 }] }), cr({ l: [{ name: 'a', v: 5 }] })), []);
  });

  it('does not correlate fields of an atomic map', () => {
    const schema = crd({ s: { type: 'object', 'x-kubernetes-map-type': 'atomic', properties: { a: { ...int, 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] } } } });
    assert.deepEqual(run(schema, cr({ s: { a: 2 } }), cr({ s: { a: 1 } })), []);
  });

  it('optionalOldSelf runs on create with oldSelf as an optional', () => {
    const schema = crd({ a: int }, [{ rule: '!oldSelf.hasValue() || self.a >= oldSelf.value().a', optionalOldSelf: true, message: 'a went down' }, { rule: 'oldSelf.hasValue() || self.a < 10', optionalOldSelf: true, message: 'starts below 10' }]);
    assert.deepEqual(run(schema, cr({ a: 11 })), ['spec: Invalid value: "object": starts below 10']);
    assert.deepEqual(run(schema, cr({ a: 1 }), cr({ a: 2 })), ['spec: Invalid value: "object": a went down']);
  });

  it('compares set and map lists as kube does (order does not matter), also inside objects', () => {
    const schema = crd(
      {
        s: { type: 'array', 'x-kubernetes-list-type': 'set', items: str },
        m: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: { type: 'object', required: ['k'], properties: { k: str, v: int } } },
        a: { type: 'array', items: str },
      },
      [{ rule: 'self == oldSelf', message: 'immutable' }],
    );
    const old = cr({ s: ['x', 'y'], m: [{ k: 'a', v: 1 }, { k: 'b', v: 2 }], a: ['p', 'q'] });
    assert.deepEqual(run(schema, cr({ s: ['y', 'x'], m: [{ k: 'b', v: 2 }, { k: 'a', v: 1 }], a: ['p', 'q'] }), old), []);
    assert.deepEqual(run(schema, cr({ s: ['x', 'y'], m: [{ k: 'a', v: 1 }, { k: 'b', v: 2 }], a: ['q', 'p'] }), old), ['spec: Invalid value: "object": immutable']);
    assert.deepEqual(run(schema, cr({ s: ['x', 'y'], m: [{ k: 'a', v: 1 }, { k: 'b', v: 3 }], a: ['p', 'q'] }), old), ['spec: Invalid value: "object": immutable']);
    const setRule = crd({ s: { type: 'array', 'x-kubernetes-list-type': 'set', items: str } }, [{ rule: "self.s == ['b', 'a']" }, { rule: "self.s != ['a', 'b']", message: 'ne' }]);
    assert.deepEqual(run(setRule, cr({ s: ['a', 'b'] })), ['spec: Invalid value: "object": ne']);
    const plus = crd(
      { s: { type: 'array', 'x-kubernetes-list-type': 'set', items: str }, m: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: { type: 'object', required: ['k'], properties: { k: str, v: int } } } },
      [{ rule: "size(self.s + ['a', 'c']) == 3" }, { rule: "(self.m + [{'k': 'a', 'v': 9}]).map(e, e.v) == [9, 2]" }],
    );
    assert.deepEqual(run(plus, cr({ s: ['a', 'b'], m: [{ k: 'a', v: 1 }, { k: 'b', v: 2 }] })), []);
  });

  it('messageExpression may use oldSelf', () => {
    const schema = crd({ a: int }, [{ rule: 'self.a >= oldSelf.a', messageExpression: "'a went from ' + string(oldSelf.a) + ' to ' + string(self.a)", reason: 'FieldValueForbidden', fieldPath: '.a' }]);
    assert.deepEqual(run(schema, cr({ a: 1 }), cr({ a: 3 })), ['spec.a: Forbidden: a went from 3 to 1']);
  });
});

describe('CEL validator: ratcheting', () => {
  const schema = crd({ a: { ...int, 'x-kubernetes-validations': [{ rule: 'self > 5' }] }, b: { ...int, 'x-kubernetes-validations': [{ rule: 'self > 5' }] }, l: { type: 'array', items: { ...int, 'x-kubernetes-validations': [{ rule: 'self > 5' }] } } });

  it('drops errors of values equal to the old ones when enabled', () => {
    const old = cr({ a: 1, b: 1, l: [1] });
    const obj = cr({ a: 1, b: 2, l: [1] });
    assert.deepEqual(run(schema, obj, old, true), ['spec.b: Invalid value: "integer": failed rule: self > 5']);
    assert.deepEqual(run(schema, obj, old, false).length, 3);
  });

  it('an atomic list item ratchets with its list', () => {
    assert.deepEqual(run(schema, cr({ l: [1, 7] }), cr({ l: [1] }), true), ['spec.l[0]: Invalid value: "integer": failed rule: self > 5']);
  });

  it('never ratchets transition rules', () => {
    const t = crd({ a: int }, [{ rule: 'self.a == oldSelf.a && self.a > 5' }]);
    assert.deepEqual(run(t, cr({ a: 1 }), cr({ a: 1 }), true), ['spec: Invalid value: "object": failed rule: self.a == oldSelf.a && self.a > 5']);
  });
});

describe('CEL validator: cost limits', () => {
  const quadratic = crd({ l: { type: 'array', items: int } }, [{ rule: 'self.l.all(x, self.l.all(y, x <= y || x > y))' }, { rule: 'false' }]);

  it('stops at the per-call limit with kube message', () => {
    const v = newCelValidator(quadratic, { budget: 10_000_000, perCallLimit: 2000 });
    const errs = v!.validate(cr({ l: Array.from({ length: 100 }, (_, i) => i) }), undefined, { ratcheting: false }).map(fieldErrorMessage);
    assert.deepEqual(errs, [
      "spec: Invalid value: \"object\": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: self.l.all(x, self.l.all(y, x <= y || x > y))",
    ]);
  });

  it("enforces kube's per-call limit by default", () => {
    const errs = run(quadratic, cr({ l: Array.from({ length: 700 }, (_, i) => i) }));
    assert.equal(errs.length, 1);
    assert.match(errs[0]!, /'operation cancelled: actual cost limit exceeded': no further validation rules will be run/);
  });

  it('stops when the validation budget runs out', () => {
    const schema = crd({ l: { type: 'array', items: { ...str, 'x-kubernetes-validations': [{ rule: "self.startsWith('a')" }] } } });
    const v = newCelValidator(schema, { budget: 20, perCallLimit: 1000 });
    const errs = v!.validate(cr({ l: Array.from({ length: 50 }, () => 'abc') }), undefined, { ratcheting: false }).map(fieldErrorMessage);
    assert.equal(errs.length, 1);
    assert.match(errs[0]!, /^spec\.l\[\d+\]: Invalid value: "string": validation failed due to running out of cost budget, no further validation rules will be run$/);
  });
});

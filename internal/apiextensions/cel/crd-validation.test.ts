import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldErrorMessage } from '../../validation/field-error.js';
import type { JSONSchemaProps, ValidationRule } from '../interface.js';
import { costErrorMessage } from './crd-validation.js';
import { validateCelRulesOnValue, validateCrdCelRules } from './index.js';

const root = 'spec.validation.openAPIV3Schema';
const at = `${root}.properties[spec]`;

function spec(properties: Record<string, JSONSchemaProps>, rules: ValidationRule[]): JSONSchemaProps {
  return { type: 'object', properties: { spec: { type: 'object', properties, 'x-kubernetes-validations': rules } } };
}

function check(schema: JSONSchemaProps, old?: JSONSchemaProps): string[] {
  return validateCrdCelRules(schema, root, old).map(fieldErrorMessage);
}

const goRule = (rule: string, extra = '') =>
  `apiextensions.ValidationRule{Rule:${JSON.stringify(rule)}, Message:"", MessageExpression:${JSON.stringify(extra)}, Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}`;
const hint = '(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)';

describe('validateCrdCelRules', () => {
  it('accepts valid rules', () => {
    const schema = spec({ a: { type: 'integer' }, b: { type: 'string', maxLength: 10 } }, [
      { rule: 'self.a > 0 && self.b.startsWith("x")', message: 'm', messageExpression: "'a is ' + string(self.a)", reason: 'FieldValueForbidden', fieldPath: '.a' },
      { rule: 'self.a >= oldSelf.a', optionalOldSelf: true },
    ]);
    assert.deepEqual(check(schema), []);
  });

  it('reports compile errors at the rule with the rule as Go prints it', () => {
    const errs = check(spec({ a: { type: 'integer' } }, [{ rule: 'self.b == 1' }, { rule: 'self.a' }, { rule: 'self.a == "x"' }]));
    assert.deepEqual(errs, [
      `${at}.x-kubernetes-validations[0].rule: Invalid value: ${goRule('self.b == 1')}: compilation failed: ERROR: <input>:1:5: undefined field 'b'\n | self.b == 1\n | ....^`,
      `${at}.x-kubernetes-validations[1].rule: Invalid value: ${goRule('self.a')}: cel expression must evaluate to a bool`,
      `${at}.x-kubernetes-validations[2].rule: Invalid value: ${goRule('self.a == "x"')}: compilation failed: ERROR: <input>:1:8: found no matching overload for '_==_' applied to '(int, string)'\n | self.a == "x"\n | .......^`,
    ]);
  });

  it('reports messageExpression errors', () => {
    const errs = check(spec({ a: { type: 'integer' } }, [{ rule: 'true', messageExpression: 'self.a' }, { rule: 'true', messageExpression: 'nope' }]));
    assert.equal(errs[0], `${at}.x-kubernetes-validations[0].messageExpression: Invalid value: ${goRule('true', 'self.a')}: messageExpression must evaluate to a string`);
    assert.match(errs[1]!, /x-kubernetes-validations\[1\]\.messageExpression: Invalid value: .*: messageExpression compilation failed: ERROR: <input>:1:1: undeclared reference to 'nope'/);
  });

  it('reports reasons, fieldPaths and messages before compiling', () => {
    const errs = check(spec({ a: { type: 'integer' } }, [
      { rule: 'self.a == ', reason: 'Bogus' },
      { rule: 'true', fieldPath: '.b' },
      { rule: 'true', fieldPath: 'a' },
      { rule: '' },
      { rule: 'true', message: 'two\nlines' },
      { rule: 'true ||\nfalse' },
    ]));
    assert.deepEqual(errs, [
      `${at}.x-kubernetes-validations[0].reason: Unsupported value: "Bogus": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
      `${at}.x-kubernetes-validations[1].fieldPath: Invalid value: ".b": fieldPath must be a valid path: does not refer to a valid field`,
      `${at}.x-kubernetes-validations[2].fieldPath: Invalid value: "a": fieldPath must be a valid path: expected [ or . but got: a`,
      `${at}.x-kubernetes-validations[3].rule: Required value: rule is not specified`,
      `${at}.x-kubernetes-validations[4].message: Invalid value: "two\\nlines": message must not contain line breaks`,
      `${at}.x-kubernetes-validations[5].message: Required value: message must be specified if rule contains line breaks`,
    ]);
  });

  it('forbids oldSelf where old items do not correlate, and optionalOldSelf without oldSelf', () => {
    const item: JSONSchemaProps = { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] };
    const schema = spec({ s: { type: 'array', maxItems: 5, 'x-kubernetes-list-type': 'set', items: { ...item, maxLength: 5 } }, m: { type: 'array', maxItems: 5, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: { type: 'object', required: ['k'], properties: { k: { type: 'string', maxLength: 5 } }, 'x-kubernetes-validations': [{ rule: 'self.k == oldSelf.k' }] } } }, [{ rule: 'true', optionalOldSelf: false }]);
    assert.deepEqual(check(schema), [
      `${at}.properties[s].items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within ${at}.properties[s]`,
      `${at}.x-kubernetes-validations[0].optionalOldSelf: Invalid value: false: may not be set if rule does not use oldSelf`,
    ]);
  });

  it('forbids oldSelf below an atomic map, allows it below a granular one', () => {
    const inner: JSONSchemaProps = { type: 'object', properties: { a: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] } } };
    assert.deepEqual(check(spec({ g: inner, t: { ...inner, 'x-kubernetes-map-type': 'atomic' } }, [])), [
      `${at}.properties[t].properties[a].x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within ${at}.properties[t]`,
    ]);
  });

  it('reports rules on nodes without a CEL type as internal errors', () => {
    const schema: JSONSchemaProps = { type: 'object', properties: { x: { 'x-kubernetes-preserve-unknown-fields': true, 'x-kubernetes-validations': [{ rule: 'true' }] } } };
    assert.deepEqual(check(schema), [`${root}.properties[x].x-kubernetes-validations: Internal error: rule declared on schema that does not support validation rules type: '' x-kubernetes-preserve-unknown-fields: 'true'`]);
  });
});

describe('validateCrdCelRules: estimated cost limits', () => {
  it('formats the factor as kube does', () => {
    assert.equal(costErrorMessage('estimated rule cost', 12_000_002, 10_000_000), `estimated rule cost exceeds budget by factor of 1.200000x ${hint}`);
    assert.equal(costErrorMessage('estimated rule cost', 20_000_003, 10_000_000), `estimated rule cost exceeds budget by factor of 2.0x ${hint}`);
    assert.equal(costErrorMessage('estimated rule cost', 2e9, 10_000_000), `estimated rule cost exceeds budget by factor of more than 100x ${hint}`);
  });

  it('forbids a rule over the per-rule limit', () => {
    const schema = spec({ l: { type: 'array', maxItems: 4_000_000, items: { type: 'number' } } }, [{ rule: 'self.l.all(x, true)' }]);
    assert.deepEqual(check(schema), [`${at}.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of 1.200000x ${hint}`]);
    const bounded = spec({ l: { type: 'array', maxItems: 1000, items: { type: 'number' } } }, [{ rule: 'self.l.all(x, true)' }]);
    assert.deepEqual(check(bounded), []);
  });

  it('multiplies a rule under a list or map by how often it can run', () => {
    const items = (maxItems?: number): JSONSchemaProps => spec({ l: { type: 'array', ...(maxItems ? { maxItems } : {}), items: { type: 'string', maxLength: 1000, 'x-kubernetes-validations': [{ rule: "self.contains('abcdefghij')" }] } } }, []);
    const errs = check(items());
    assert.equal(errs[0], `${at}.properties[l].items.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of 42.0x ${hint}`);
    assert.deepEqual(check(items(100)), []);
  });

  it('forbids the schema when the total passes the CRD limit, naming the most expensive rules', () => {
    const rules = Array.from({ length: 13 }, (_, i) => ({ rule: `self.l.all(x, x != ${i}.0)` }));
    const schema = spec({ l: { type: 'array', maxItems: 2_000_000, items: { type: 'number' } } }, rules);
    const errs = check(schema);
    assert.equal(errs.length, 5);
    for (let i = 0; i < 4; i++) assert.equal(errs[i], `${at}.x-kubernetes-validations[${i}].rule: Forbidden: contributed to estimated rule & messageExpression cost total exceeding cost limit for entire OpenAPIv3 schema`);
    assert.equal(errs[4], `${root}: Forbidden: x-kubernetes-validations estimated rule & messageExpression cost total for entire OpenAPIv3 schema exceeds budget by factor of 1.040000x ${hint}`);
  });

  it('does not hold unchanged rules to the per-rule limit (ratcheting)', () => {
    const schema = spec({ l: { type: 'array', items: { type: 'string' } } }, [{ rule: 'self.l.all(x, self.l.all(y, x == y))' }]);
    assert.equal(check(schema).length, 1 + 1 + 1);
    const errs = check(schema, schema);
    assert.ok(errs.every((e) => !e.includes('estimated rule cost exceeds')), errs.join('\n'));
  });
});

describe('validateCelRulesOnValue (defaults)', () => {
  it('evaluates a node\'s rules on a value, transition rules with oldSelf == self', () => {
    const node: JSONSchemaProps = { type: 'object', properties: { n: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'self.n > 1', message: 'n too small' }, { rule: 'self.n == oldSelf.n' }] };
    assert.deepEqual(validateCelRulesOnValue(node, { n: 1 }, `${at}.default`).map(fieldErrorMessage), [`${at}.default: Invalid value: "object": n too small`]);
    assert.deepEqual(validateCelRulesOnValue(node, { n: 2 }, `${at}.default`), []);
  });
});

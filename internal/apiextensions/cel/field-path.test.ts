import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JSONSchemaProps } from '../interface.js';
import { escapeFieldName, schemaDeclType } from './decl-type.js';
import { validFieldPath } from './field-path.js';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: { spec: { type: 'object', properties: { 'a.b': { type: 'string' }, labels: { type: 'object', additionalProperties: { type: 'string' } } } } },
};

describe('validFieldPath', () => {
  const table: [string, string][] = [
    ['.spec', 'spec'],
    [".spec['a.b']", 'spec.a.b'],
    ['.spec.labels.app', 'spec.labels[app]'],
    [".spec.labels['x/y']", 'spec.labels[x/y]'],
    [".spec.labels['it\\'s']", "spec.labels[it's]"],
  ];
  for (const [path, want] of table) {
    it(path, () => {
      const r = validFieldPath(path, schema);
      assert.ok('path' in r, JSON.stringify(r));
      assert.equal(r.path, want);
    });
  }
  const errors: [string, string][] = [
    ['.nope', 'does not refer to a valid field'],
    ['spec', 'expected [ or . but got: spec'],
    ['.spec[a]', 'expected single quoted string but got a'],
    [".spec['a.b'", 'unexpected end of JSON path'],
    ['.spec.', 'unexpected end of JSON path'],
    [".spec.labels['\\q']", 'invalid string literal: invalid escape char \\q'],
    ['.spec.a.b.c', 'does not refer to a valid field'],
  ];
  for (const [path, want] of errors) {
    it(`refuses ${path}`, () => assert.deepEqual(validFieldPath(path, schema), { error: want }));
  }
});

describe('decl types', () => {
  it('escapes property names as kube does', () => {
    assert.equal(escapeFieldName('x-prop'), 'x__dash__prop');
    assert.equal(escapeFieldName('a.b/c__d'), 'a__dot__b__slash__c__underscores__d');
    assert.equal(escapeFieldName('namespace'), '__namespace__');
    assert.equal(escapeFieldName('1x'), undefined);
    assert.equal(escapeFieldName('a b'), undefined);
  });

  it('sizes strings, lists and maps from the schema or the request limit', () => {
    assert.equal(schemaDeclType({ type: 'string', maxLength: 10 }, false)!.maxSize, 40);
    assert.equal(schemaDeclType({ type: 'string' }, false)!.maxSize, 3 * 1024 * 1024 - 2);
    assert.equal(schemaDeclType({ type: 'array', items: { type: 'integer' } }, false)!.maxSize, Math.floor((3 * 1024 * 1024 - 2) / 2));
    assert.equal(schemaDeclType({ type: 'object', additionalProperties: { type: 'boolean' } }, false)!.maxSize, Math.floor((3 * 1024 * 1024 - 2) / 10));
    assert.equal(schemaDeclType({ type: 'object', maxProperties: 7, additionalProperties: { type: 'boolean' } }, false)!.maxSize, 7);
  });

  it('gives a resource root apiVersion, kind and metadata', () => {
    const t = schemaDeclType({ type: 'object', properties: {} }, true)!;
    assert.deepEqual([...t.fields!.keys()].sort(), ['apiVersion', 'kind', 'metadata']);
    assert.deepEqual([...t.fields!.get('metadata')!.fields!.keys()].sort(), ['generateName', 'name']);
    assert.equal(schemaDeclType({ 'x-kubernetes-preserve-unknown-fields': true }, false), undefined);
  });
});

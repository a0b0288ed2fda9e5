import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JsonPathError } from './jsonpath.js';
import { customResourcePrinter } from './printer.js';

const now = new Date('2026-01-01T00:10:00Z');
const obj = {
  metadata: { name: 'w', creationTimestamp: '2026-01-01T00:00:00Z' },
  spec: { n: 2.7, f: 1.5, b: true, s: 'x', m: { k: 'v' }, when: 'not a time', list: [1, 2] },
};

describe('custom resource printer', () => {
  it('prints Name and kube’s default Age column when the version has no columns', () => {
    const p = customResourcePrinter([]);
    assert.deepEqual(
      p.columns.map((c) => [c.name, c.type, c.format]),
      [
        ['Name', 'string', 'name'],
        ['Age', 'date', ''],
      ],
    );
    assert.match(p.columns[1]?.description ?? '', /^CreationTimestamp is a timestamp/);
    assert.deepEqual(p.cells(obj, now), ['w', '10m']);
  });

  it('types cells by the column type, null where the value is missing or does not fit', () => {
    const p = customResourcePrinter([
      { name: 'I', type: 'integer', jsonPath: '.spec.n' },
      { name: 'N', type: 'number', jsonPath: '.spec.f' },
      { name: 'B', type: 'boolean', jsonPath: '.spec.b' },
      { name: 'S', type: 'string', jsonPath: '.spec.m' },
      { name: 'L', type: 'string', jsonPath: '.spec.list' },
      { name: 'Missing', type: 'string', jsonPath: '.spec.none', priority: 1, format: 'byte' },
      { name: 'Bad', type: 'boolean', jsonPath: '.spec.s' },
      { name: 'When', type: 'date', jsonPath: '.spec.when' },
    ]);
    assert.deepEqual(p.cells(obj, now), ['w', 2, 1.5, true, 'map[k:v]', '[1 2]', null, null, '<invalid>']);
    assert.deepEqual([p.columns[6]?.priority, p.columns[6]?.format], [1, 'byte']);
  });

  it('refuses a column whose JSONPath does not parse', () => {
    assert.throws(() => customResourcePrinter([{ name: 'X', type: 'string', jsonPath: '.spec[' }]), JsonPathError);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withoutManagedFields } from './managed-fields.js';

const mf = [{ manager: 'kubectl', operation: 'Update' }];

describe('omitManagedFields', () => {
  it('drops metadata.managedFields of an object, list items and Table rows without touching the input', () => {
    const obj = { kind: 'ConfigMap', metadata: { name: 'a', managedFields: mf }, data: { k: 'v' } };
    assert.deepEqual(withoutManagedFields(obj), { kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: 'v' } });
    assert.equal(obj.metadata.managedFields, mf);
    const list = { kind: 'ConfigMapList', metadata: {}, items: [obj, { metadata: { name: 'b' } }] };
    const out = withoutManagedFields(list) as typeof list;
    assert.deepEqual(out.items, [{ kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: 'v' } }, { metadata: { name: 'b' } }]);
    assert.equal(out.items[1], list.items[1], 'items without managedFields are shared');
    const table = { kind: 'Table', rows: [{ cells: ['a'], object: obj }] };
    assert.deepEqual((withoutManagedFields(table) as typeof table).rows[0]?.object, { kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: 'v' } });
    const plain = { kind: 'Status', metadata: {} };
    assert.equal(withoutManagedFields(plain), plain);
    assert.equal(withoutManagedFields('x'), 'x');
  });
});

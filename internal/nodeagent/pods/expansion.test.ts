import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expand, mappingOf } from './expansion.js';

describe('$(VAR) expansion', () => {
  const lookup = mappingOf(new Map([['A', 'alpha'], ['B', '$(A)']]));
  it('replaces defined variables and keeps undefined ones as written', () => {
    assert.equal(expand('$(A)-$(C)', lookup), 'alpha-$(C)');
  });
  it('unescapes $$ and keeps other dollars and unclosed references', () => {
    assert.equal(expand('$$(A) $x $(A', lookup), '$(A) $x $(A');
    assert.equal(expand('cost: 5$', lookup), 'cost: 5$');
  });
  it('does not expand a value twice', () => {
    assert.equal(expand('$(B)', lookup), '$(A)');
  });
});

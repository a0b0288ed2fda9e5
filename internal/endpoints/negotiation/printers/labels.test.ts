/** Label maps and selectors as printers render them (labels.FormatLabels, metav1.FormatLabelSelector). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatLabelSelector, formatLabels, labelSelectorString } from './labels.js';

describe('formatLabels', () => {
  it('joins sorted k=v pairs', () => assert.equal(formatLabels({ tier: 'web', app: 'shop' }), 'app=shop,tier=web'));
  it('sorts the pairs as strings, not the keys', () => assert.equal(formatLabels({ a: '2', 'a.b': '1' }), 'a.b=1,a=2'));
  it('prints <none> for no labels', () => assert.equal(formatLabels({}), '<none>'));
});

describe('formatLabelSelector', () => {
  it('renders matchLabels and matchExpressions sorted by key', () => {
    const selector = {
      matchLabels: { tier: 'web', app: 'shop' },
      matchExpressions: [
        { key: 'env', operator: 'In', values: ['prod', 'dev'] },
        { key: 'canary', operator: 'DoesNotExist' },
        { key: 'zone', operator: 'NotIn', values: ['b'] },
        { key: 'gpu', operator: 'Exists' },
      ],
    };
    assert.equal(formatLabelSelector(selector), 'app=shop,!canary,env in (dev,prod),gpu,tier=web,zone notin (b)');
  });
  it('prints <none> for a missing or empty selector', () => {
    assert.equal(formatLabelSelector(undefined), '<none>');
    assert.equal(formatLabelSelector({}), '<none>');
  });
  it('prints <error> for a selector that does not convert', () => {
    assert.equal(formatLabelSelector({ matchExpressions: [{ key: 'a', operator: 'Near', values: ['b'] }] }), '<error>');
    assert.equal(formatLabelSelector({ matchExpressions: [{ key: 'a', operator: 'In' }] }), '<error>');
  });
  it('gives the bare string, or undefined when invalid', () => {
    assert.equal(labelSelectorString(null), '');
    assert.equal(labelSelectorString({ matchLabels: { app: 'web' } }), 'app=web');
    assert.equal(labelSelectorString({ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] }), undefined);
  });
});

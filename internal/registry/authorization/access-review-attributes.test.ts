import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { evaluationError, fieldSelectorAttributes, labelSelectorAttributes, resourceAttributesFrom } from './access-review-attributes.js';

describe('access review selectors', () => {
  it('parse raw field selectors (terms sorted, as kube parses them) and report parse errors', () => {
    assert.deepEqual(fieldSelectorAttributes({ rawSelector: 'spec.nodeName=n1,metadata.name!=x' })?.requirements, [
      { field: 'metadata.name', operator: '!=', value: 'x' },
      { field: 'spec.nodeName', operator: '=', value: 'n1' },
    ]);
    const bad = fieldSelectorAttributes({ rawSelector: 'nonsense' });
    assert.deepEqual(bad?.requirements, []);
    assert.ok(bad?.parseError);
    assert.equal(fieldSelectorAttributes(undefined), undefined);
  });

  it('convert field requirements as kube does, keeping the valid ones', () => {
    const s = fieldSelectorAttributes({ requirements: [{ key: 'a', operator: 'NotIn', values: ['1'] }, { key: 'b', operator: 'In', values: ['1', '2'] }, { key: 'c', operator: 'Gt', values: ['1'] }] });
    assert.deepEqual(s, {
      requirements: [{ field: 'a', operator: '!=', value: '1' }],
      parseError: '[fieldSelectors do not yet support multiple values, "Gt" is not a valid field selector operator]',
    });
  });

  it('convert label requirements, refusing unknown operators and invalid values', () => {
    const s = labelSelectorAttributes({ requirements: [{ key: 'app', operator: 'In', values: ['web'] }, { key: 'x', operator: 'Foo' }, { key: 'y', operator: 'Exists', values: ['v'] }] });
    assert.deepEqual(s?.requirements, [{ key: 'app', operator: 'in', values: ['web'] }]);
    assert.equal(s?.parseError, '["Foo" is not a valid label selector operator, values: Invalid value: []string{"v"}: values set must be empty for exists and does not exist]');
  });

  it('name what was ignored in the evaluation error', () => {
    const attrs = resourceAttributesFrom({ name: 'u', groups: [] }, { verb: 'list', resource: 'pods', labelSelector: { rawSelector: 'a in (' }, version: 'v1' });
    assert.equal(attrs.apiVersion, 'v1');
    assert.equal(evaluationError('webhook: timeout', attrs), 'webhook: timeout; spec.resourceAttributes.labelSelector ignored due to parse error');
    assert.equal(evaluationError(undefined, resourceAttributesFrom({ name: 'u', groups: [] }, { verb: 'get' })), '');
  });
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { fieldErrorMessage } from '../validation/field-error.js';
import { labelSelectorAsSelector, validateLabelSelector } from './label-selector-object.js';
import { SelectorParseError, everythingLabels, nothingLabels } from './labels.js';

const labelValueRule =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const nameRule =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

describe('labelSelectorAsSelector', () => {
  test('null selects nothing, an empty selector everything', () => {
    assert.equal(labelSelectorAsSelector(null), nothingLabels);
    assert.equal(labelSelectorAsSelector(undefined), nothingLabels);
    assert.equal(labelSelectorAsSelector({}), everythingLabels);
    assert.equal(labelSelectorAsSelector({ matchLabels: {}, matchExpressions: [] }), everythingLabels);
  });

  test('matchLabels and matchExpressions become one selector sorted by key', () => {
    const s = labelSelectorAsSelector({
      matchLabels: { app: 'web', tier: 'front' },
      matchExpressions: [
        { key: 'env', operator: 'In', values: ['prod', 'canary', 'prod'] },
        { key: 'zone', operator: 'NotIn', values: ['b'] },
        { key: 'beta', operator: 'Exists' },
        { key: 'legacy', operator: 'DoesNotExist', values: [] },
      ],
    });
    assert.equal(s.toString(), 'app=web,beta,env in (canary,prod,prod),!legacy,tier=front,zone notin (b)');
    assert.equal(s.matches({ app: 'web', tier: 'front', env: 'canary', beta: '' }), true);
    assert.equal(s.matches({ app: 'web', tier: 'front', env: 'canary', beta: '', legacy: 'y' }), false);
    assert.equal(s.matches({ app: 'web', tier: 'front', env: 'dev', beta: '' }), false);
    assert.equal(s.requiresExactMatch('app'), 'web');
  });

  test('an unknown operator is rejected with kube text', () => {
    assert.throws(() => labelSelectorAsSelector({ matchExpressions: [{ key: 'a', operator: 'Foo', values: ['x'] }] }), {
      name: 'SelectorParseError',
      message: '"Foo" is not a valid label selector operator',
    });
    assert.throws(() => labelSelectorAsSelector({ matchExpressions: [{ key: 'a', operator: 'in', values: ['x'] }] }), {
      message: '"in" is not a valid label selector operator',
    });
  });

  test('In/NotIn need values and Exists/DoesNotExist forbid them', () => {
    assert.throws(() => labelSelectorAsSelector({ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] }), {
      message: "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty",
    });
    assert.throws(() => labelSelectorAsSelector({ matchExpressions: [{ key: 'a', operator: 'NotIn' }] }), {
      message: "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty",
    });
    assert.throws(() => labelSelectorAsSelector({ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x', 'y'] }] }), {
      message: 'values: Invalid value: []string{"x", "y"}: values set must be empty for exists and does not exist',
    });
  });

  test('invalid keys and values carry field errors', () => {
    assert.throws(
      () => labelSelectorAsSelector({ matchLabels: { ok: 'fine', 'a b': 'x' } }),
      (err: unknown) => {
        assert.ok(err instanceof SelectorParseError);
        assert.equal(err.message, `key: Invalid value: "a b": ${nameRule}`);
        assert.deepEqual(err.fieldErrors.map((e) => [e.type, e.field]), [['FieldValueInvalid', 'key']]);
        return true;
      },
    );
    assert.throws(() => labelSelectorAsSelector({ matchLabels: { app: 'no way' } }), {
      message: `values[0][app]: Invalid value: "no way": ${labelValueRule}`,
    });
  });
});

describe('validateLabelSelector', () => {
  const messages = (...args: Parameters<typeof validateLabelSelector>): string[] => validateLabelSelector(...args).map(fieldErrorMessage);

  test('a valid selector and a null one give no errors', () => {
    assert.deepEqual(messages(null, {}, 'spec.selector'), []);
    assert.deepEqual(
      messages({ matchLabels: { 'example.com/app': 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['a'] }] }, {}, 'spec.selector'),
      [],
    );
  });

  test('operator value rules use Required and Forbidden', () => {
    const errs = validateLabelSelector(
      {
        matchExpressions: [
          { key: 'a', operator: 'In', values: [] },
          { key: 'b', operator: 'DoesNotExist', values: ['x'] },
          { key: 'c', operator: 'Foo' },
        ],
      },
      {},
      'spec.selector',
    );
    assert.deepEqual(
      errs.map((e) => [e.type, e.field]),
      [
        ['FieldValueRequired', 'spec.selector.matchExpressions[0].values'],
        ['FieldValueForbidden', 'spec.selector.matchExpressions[1].values'],
        ['FieldValueInvalid', 'spec.selector.matchExpressions[2].operator'],
      ],
    );
    assert.deepEqual(errs.map(fieldErrorMessage), [
      "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      "spec.selector.matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
      'spec.selector.matchExpressions[2].operator: Invalid value: "Foo": not a valid selector operator',
    ]);
  });

  test('keys and values are checked, one error per failure', () => {
    assert.deepEqual(messages({ matchLabels: { '/x': '-v' } }, {}, 'spec.selector'), [
      'spec.selector.matchLabels: Invalid value: "/x": prefix part must be non-empty',
      `spec.selector.matchLabels: Invalid value: "-v": ${labelValueRule}`,
    ]);
    assert.deepEqual(messages({ matchExpressions: [{ key: 'Bad_', operator: 'In', values: ['ok', '-no'] }] }, {}, 's'), [
      `s.matchExpressions[0].key: Invalid value: "Bad_": ${nameRule}`,
      `s.matchExpressions[0].values[1]: Invalid value: "-no": ${labelValueRule}`,
    ]);
  });

  test('allowInvalidLabelValueInSelector skips only expression values', () => {
    const ps = { matchLabels: { a: '-x' }, matchExpressions: [{ key: 'b', operator: 'In', values: ['-y'] }] };
    assert.deepEqual(messages(ps, { allowInvalidLabelValueInSelector: true }, 's'), [`s.matchLabels: Invalid value: "-x": ${labelValueRule}`]);
    assert.equal(messages(ps, {}, 's').length, 2);
  });

  test('matchLabels are visited in key order', () => {
    assert.deepEqual(
      validateLabelSelector({ matchLabels: { z: '-', a: '-' } }, {}, undefined).map((e) => [e.field, e.badValue]),
      [
        ['matchLabels', '-'],
        ['matchLabels', '-'],
      ],
    );
  });
});

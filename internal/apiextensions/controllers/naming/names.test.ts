import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { crd } from '../testing.js';
import { addAcceptedNames, calculateNames, readNames, type UsedNames } from './names.js';

function used(...names: Parameters<typeof readNames>[0][]): UsedNames {
  const resources = new Set<string>();
  const kinds = new Set<string>();
  for (const n of names) addAcceptedNames(readNames(n), resources, kinds);
  return { resources, kinds };
}

const taken = { plural: 'widgets', singular: 'widget', shortNames: ['wd'], kind: 'Widget', listKind: 'WidgetList' };

describe('CRD naming (calculateNames)', () => {
  it('accepts fresh names: NoConflicts, Established False Installing, names in kube field order', () => {
    const r = calculateNames(crd('example.com', { plural: 'gadgets', kind: 'Gadget', shortNames: ['gd'] }), used(taken));
    assert.deepEqual(r.namesAccepted, { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' });
    assert.deepEqual(r.established, { type: 'Established', status: 'False', reason: 'Installing', message: 'the initial names have been accepted' });
    assert.deepEqual(Object.keys(r.acceptedNames), ['plural', 'singular', 'shortNames', 'kind', 'listKind']);
    assert.deepEqual(r.acceptedNames, { plural: 'gadgets', singular: 'gadget', shortNames: ['gd'], kind: 'Gadget', listKind: 'GadgetList' });
  });

  it('refuses a plural in use, keeping the rest: PluralConflict with a quoted name', () => {
    const r = calculateNames(crd('example.com', { plural: 'widgets', kind: 'Gizmo' }), used(taken));
    assert.deepEqual(r.namesAccepted, { type: 'NamesAccepted', status: 'False', reason: 'PluralConflict', message: '"widgets" is already in use' });
    assert.equal(r.acceptedNames.plural, '');
    assert.equal(r.acceptedNames.kind, 'Gizmo');
    assert.deepEqual(r.established, { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' });
  });

  it('the last conflict found names the reason: shortNames, kind and listKind', () => {
    const shorts = calculateNames(crd('example.com', { plural: 'gizmos', kind: 'Gizmo', shortNames: ['wd', 'widget', 'gz'] }), used(taken));
    assert.equal(shorts.namesAccepted.reason, 'ShortNamesConflict');
    assert.equal(shorts.namesAccepted.message, '["wd" is already in use, "widget" is already in use]');
    assert.equal(shorts.acceptedNames.shortNames, undefined);
    const kind = calculateNames(crd('example.com', { plural: 'gizmos', kind: 'Widget', listKind: 'GizmoList' }), used(taken));
    assert.deepEqual([kind.namesAccepted.reason, kind.namesAccepted.message], ['KindConflict', '"Widget" is already in use']);
    const list = calculateNames(crd('example.com', { plural: 'gizmos', kind: 'Gizmo', listKind: 'WidgetList' }), used(taken));
    assert.deepEqual([list.namesAccepted.reason, list.namesAccepted.message], ['ListKindConflict', '"WidgetList" is already in use']);
  });

  it('names a CRD already holds stay its own; an Established True condition is kept', () => {
    const own = crd('example.com', { plural: 'widgets', kind: 'Widget', shortNames: ['wd', 'widgets'] });
    own.status = { acceptedNames: { ...taken }, conditions: [{ type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' }] };
    const r = calculateNames(own, used(taken));
    assert.equal(r.namesAccepted.status, 'True');
    assert.deepEqual(r.acceptedNames.shortNames, ['wd', 'widgets']);
    assert.deepEqual(r.established, { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' });
  });
});

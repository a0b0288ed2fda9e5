import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventStrategy } from '../../core/events/strategy.js';
import { requestContext } from '../../core/shared/testing.js';
import { eventsV1FieldAliases, eventsV1Strategy } from './strategy.js';

describe('events.k8s.io/v1 event strategy', () => {
  it("maps this group's field labels to the stored core/v1 ones", () => {
    const { aliases, extra, style } = eventsV1Strategy.selectableFields;
    assert.equal(style, 'core');
    assert.equal(aliases['regarding.name'], 'involvedObject.name');
    assert.equal(aliases.reportingController, 'reportingComponent');
    for (const target of Object.values(eventsV1FieldAliases)) assert.ok(extra.includes(target), target);
    for (const same of ['reason', 'type', 'source']) assert.ok(extra.includes(same), same);
  });

  it('checks names as DNS subdomains and otherwise behaves like the core strategy', () => {
    assert.equal(eventsV1Strategy.nameValidation, 'subdomain');
    assert.equal(eventStrategy.nameValidation, 'path-segment');
    assert.equal(eventsV1Strategy.defaultGarbageCollectionPolicy, 'Unsupported');
    const ctx = requestContext('POST', '/apis/events.k8s.io/v1/namespaces/ns/events');
    const errs = eventsV1Strategy.validate(ctx, { metadata: { name: 'e', namespace: 'ns' }, type: 'Normal' });
    assert.ok(errs.some((e) => e.field === 'eventTime'));
  });
});

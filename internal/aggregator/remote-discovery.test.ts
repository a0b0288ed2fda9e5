import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withCondition } from './availability.js';
import { resourcesFromLegacy } from './remote-discovery.js';

describe('discovery of extension servers', () => {
  it('builds aggregated resources from a legacy APIResourceList, subresources under their resource', () => {
    assert.deepEqual(
      resourcesFromLegacy({
        resources: [
          { name: 'flunders', singularName: 'flunder', namespaced: true, kind: 'Flunder', verbs: ['get', 'list'], shortNames: ['fl'] },
          { name: 'flunders/status', singularName: '', namespaced: true, kind: 'Flunder', verbs: ['get'] },
          { name: 'flunders/scale', singularName: '', namespaced: true, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get'] },
        ],
      }),
      [
        {
          resource: 'flunders',
          responseKind: { group: '', version: '', kind: 'Flunder' },
          scope: 'Namespaced',
          singularResource: 'flunder',
          verbs: ['get', 'list'],
          shortNames: ['fl'],
          subresources: [
            { subresource: 'status', responseKind: { group: '', version: '', kind: 'Flunder' }, verbs: ['get'] },
            { subresource: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get'] },
          ],
        },
      ],
    );
  });
});

describe('APIService conditions', () => {
  it('keep lastTransitionTime while the status stays, and replace reason and message', () => {
    const old = [{ type: 'Available', status: 'False' as const, lastTransitionTime: '2020-01-01T00:00:00Z', reason: 'ServiceNotFound', message: 'gone' }];
    const same = withCondition(old, { type: 'Available', status: 'False', reason: 'MissingEndpoints', message: 'none' });
    assert.deepEqual(same, [{ type: 'Available', status: 'False', lastTransitionTime: '2020-01-01T00:00:00Z', reason: 'MissingEndpoints', message: 'none' }]);
    const flipped = withCondition(old, { type: 'Available', status: 'True', reason: 'Passed', message: 'all checks passed' });
    assert.notEqual(flipped[0]?.lastTransitionTime, '2020-01-01T00:00:00Z');
    assert.match(flipped[0]?.lastTransitionTime ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });
});

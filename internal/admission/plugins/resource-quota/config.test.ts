import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseResourceQuotaConfiguration } from './config.js';

describe('ResourceQuotaConfiguration', () => {
  it('reads limitedResources with matchContains and matchScopes', () => {
    const c = parseResourceQuotaConfiguration({
      apiVersion: 'apiserver.config.k8s.io/v1',
      kind: 'ResourceQuotaConfiguration',
      limitedResources: [
        { resource: 'pods', matchScopes: [{ scopeName: 'PriorityClass', operator: 'In', values: ['cluster-services'] }] },
        { apiGroup: '', resource: 'persistentvolumeclaims', matchContains: ['.storageclass.storage.k8s.io/requests.storage'] },
      ],
    });
    assert.deepEqual(c.limitedResources[0]?.matchScopes, [{ scopeName: 'PriorityClass', operator: 'In', values: ['cluster-services'] }]);
    assert.deepEqual(c.limitedResources[1]?.matchContains, ['.storageclass.storage.k8s.io/requests.storage']);
    assert.deepEqual(parseResourceQuotaConfiguration(undefined), { limitedResources: [] });
  });

  it('refuses a wrong kind and a limited resource without a resource', () => {
    assert.throws(() => parseResourceQuotaConfiguration({ apiVersion: 'apiserver.config.k8s.io/v1', kind: 'Other' }), /no kind "Other" is registered/);
    assert.throws(
      () => parseResourceQuotaConfiguration({ apiVersion: 'apiserver.config.k8s.io/v1', kind: 'ResourceQuotaConfiguration', limitedResources: [{ matchContains: ['x'] }] }),
      { message: 'limitedResources[0].resource: Required value' },
    );
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testAttributes } from '../testing/attributes.js';
import { AlwaysAdmit } from './always-admit.js';
import { AlwaysDeny } from './always-deny.js';

describe('AlwaysAdmit and AlwaysDeny', () => {
  it('AlwaysDeny refuses every operation in both phases with kube message', async () => {
    const plugin = new AlwaysDeny();
    for (const op of ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as const) assert.equal(plugin.handles(op), true);
    await assert.rejects(plugin.admit(testAttributes({ operation: 'CONNECT', resource: 'pods', subresource: 'proxy', name: 'p' })), (err: any) => {
      assert.equal(err.code, 403);
      assert.equal(err.message, 'pods "p" is forbidden: admission control is denying all modifications');
      return true;
    });
    await assert.rejects(plugin.validate(testAttributes({})), /configmaps "x" is forbidden: admission control is denying all modifications/);
  });

  it('AlwaysAdmit handles nothing', () => {
    assert.equal(new AlwaysAdmit().handles('CREATE'), false);
  });
});

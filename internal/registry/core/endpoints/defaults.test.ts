import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { defaultEndpoints } from './defaults.js';

describe('defaultEndpoints (SetDefaults_Endpoints)', () => {
  it('gives every subset port protocol TCP unless set', () => {
    const obj: KubeObject = {
      metadata: { name: 'e' },
      subsets: [{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80 }, { name: 'dns', port: 53, protocol: 'UDP' }] }],
    };
    defaultEndpoints(obj);
    assert.deepEqual(obj.subsets, [{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80, protocol: 'TCP' }, { name: 'dns', port: 53, protocol: 'UDP' }] }]);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { defaultSecret } from './defaults.js';

describe('defaultSecret (SetDefaults_Secret)', () => {
  it('types an untyped secret Opaque and keeps a given type', () => {
    const plain: KubeObject = { metadata: { name: 's' }, data: { a: 'Yg==' } };
    defaultSecret(plain);
    assert.deepEqual(plain, { metadata: { name: 's' }, data: { a: 'Yg==' }, type: 'Opaque' });
    const tls: KubeObject = { metadata: { name: 't' }, type: 'kubernetes.io/tls' };
    defaultSecret(tls);
    assert.equal(tls.type, 'kubernetes.io/tls');
  });
});

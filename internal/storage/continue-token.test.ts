import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StorageError } from './errors.js';
import { decodeContinue, encodeContinue } from './continue-token.js';

const prefix = '/registry/configmaps/ns/';
const forge = (o: object): string => Buffer.from(JSON.stringify(o)).toString('base64url');
const message = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof StorageError);
    return err.message;
  }
  assert.fail('expected a StorageError');
};

describe('continue tokens', () => {
  it('round-trips a token', () => {
    const t = encodeContinue(`${prefix}b\u0000`, prefix, 42n);
    assert.deepEqual(decodeContinue(t, prefix), { startKey: `${prefix}b\u0000`, revision: 42n });
  });

  it('refuses padded or non-URL base64 as Go\'s RawURLEncoding does', () => {
    const t = forge({ v: 'meta.k8s.io/v1', rv: 5, start: 'ab' });
    assert.match(message(() => decodeContinue(`${t}==`, prefix)), /^continue key is not valid: illegal base64 data at input byte \d+$/);
    assert.equal(message(() => decodeContinue('ab+c', prefix)), 'continue key is not valid: illegal base64 data at input byte 2');
    assert.equal(message(() => decodeContinue('abcde', prefix)), 'continue key is not valid: illegal base64 data at input byte 4');
  });

  it('refuses a start key that path cleaning would change', () => {
    for (const start of ['a//b', 'a/', '../secrets/x', 'a/./b', 'a/../../x', '/a/..']) {
      assert.equal(message(() => decodeContinue(forge({ v: 'meta.k8s.io/v1', rv: 5, start }), prefix)), `continue key is not valid: ${start}`, start);
    }
    assert.equal(decodeContinue(forge({ v: 'meta.k8s.io/v1', rv: 5, start: '/a' }), prefix).startKey, `${prefix}a`);
  });
});

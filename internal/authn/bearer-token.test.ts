import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import { bearerToken, hasSpaceBeforeBearerToken } from './bearer-token.js';

const req = (authorization?: string): IncomingMessage => ({ headers: authorization === undefined ? {} : { authorization } }) as IncomingMessage;

describe('bearerToken', () => {
  it('reads the second space-separated field, as kube splits the header (at most three fields)', () => {
    assert.equal(bearerToken(req('Bearer abc')), 'abc');
    assert.equal(bearerToken(req('  bEaReR abc  ')), 'abc');
    // Found by the fuzz-requests campaign: Capstan read "a b" and answered 401 where kube presents "a".
    assert.equal(bearerToken(req('Bearer a b')), 'a');
  });

  it('has no token for another scheme, a bare scheme, or an extra space before the token (kube ignores it and warns)', () => {
    for (const h of [undefined, '', 'Basic Zm9v', 'Bearer', 'Bearer ', 'Bearerabc']) assert.equal(bearerToken(req(h)), undefined, String(h));
    // Found by the fuzz-requests campaign: Capstan authenticated "Bearer  <token>", kube treats it as anonymous.
    assert.equal(bearerToken(req('Bearer  abc')), undefined);
    assert.equal(hasSpaceBeforeBearerToken(req('Bearer  abc')), true);
    assert.equal(hasSpaceBeforeBearerToken(req('Bearer abc')), false);
    assert.equal(hasSpaceBeforeBearerToken(req('Basic  abc')), false);
  });
});

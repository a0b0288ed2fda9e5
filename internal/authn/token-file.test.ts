import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tempDir, writeTemp } from '../../test/support/client-certs.js';
import { createLogger } from '../observability/logging.js';
import { parseTokenFile, StaticTokenAuthenticator } from './token-file.js';

describe('static token file', () => {
  it('reads token,user,uid and the groups column split on commas', () => {
    const warnings: string[] = [];
    const tokens = parseTokenFile('/f.csv', 'tok1,alice,uid-a,"devs,ops"\ntok2,bob,\ntok3,carol,uid-c,\n', (m) => warnings.push(m));
    const a = new StaticTokenAuthenticator(tokens);
    assert.deepEqual(a.authenticateToken('tok1'), { user: { name: 'alice', uid: 'uid-a', groups: ['devs', 'ops'] } });
    assert.deepEqual(a.authenticateToken('tok2'), { user: { name: 'bob', uid: '', groups: [] } });
    // Go's strings.Split: an empty groups column is one empty group, as kube reads it.
    assert.deepEqual(a.authenticateToken('tok3'), { user: { name: 'carol', uid: 'uid-c', groups: [''] } });
    assert.equal(a.authenticateToken('nope'), undefined);
    assert.deepEqual(warnings, []);
  });

  it('warns about empty and duplicate tokens; the later duplicate wins', () => {
    const warnings: string[] = [];
    const tokens = parseTokenFile('/f.csv', ',nobody,0\ntok,first,1\ntok,second,2\n', (m) => warnings.push(m));
    assert.equal(tokens.get('tok')?.user.name, 'second');
    assert.equal(tokens.size, 1);
    assert.deepEqual(warnings, [
      "empty token has been found in token file '/f.csv', record number '1'",
      "duplicate token has been found in token file '/f.csv', record number '3'",
    ]);
  });

  it("refuses short records and CSV errors with kube's messages", () => {
    assert.throws(() => parseTokenFile('/f.csv', 'tok,alice,1\ntok2,bob\n', () => undefined), {
      message: "token file '/f.csv' must have at least 3 columns (token, user name, user uid), found 2",
    });
    assert.throws(() => parseTokenFile('/f.csv', 'to"k,alice,1\n', () => undefined), { message: 'parse error on line 1, column 3: bare " in non-quoted-field' });
  });

  it('reads the file at start-up and fails when it is missing', async () => {
    const log = createLogger(0, true);
    const path = await writeTemp(await tempDir(), 'tokens.csv', 'abc,dave,7,admins\n');
    assert.equal((await StaticTokenAuthenticator.fromFile(path, log)).authenticateToken('abc')?.user.name, 'dave');
    await assert.rejects(StaticTokenAuthenticator.fromFile('/nonexistent/tokens.csv', log), /ENOENT/);
  });
});

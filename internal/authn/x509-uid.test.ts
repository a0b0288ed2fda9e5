import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { createCertificateAuthority } from '../server/pki.js';
import { AuthenticationError } from './interface.js';
import type { PeerCertificates } from './peer-certificates.js';
import { certificateUser } from './x509.js';

describe('x509: the user UID of a certificate (AllowParsingUserUIDFromCertAuth)', () => {
  let leaf: X509Certificate;
  before(async () => {
    leaf = new X509Certificate((await createCertificateAuthority('leaf')).certPem);
  });
  const peer = (uids: string[]): PeerCertificates => ({ leaf, commonName: 'alice', organizations: ['devs'], uids, intermediates: [] });

  it('takes the one UID attribute of the subject when the gate is on (kube 1.33 default)', () => {
    assert.equal(certificateUser(peer(['uid-1']))?.user.uid, 'uid-1');
    assert.equal(certificateUser(peer([]))?.user.uid, undefined);
  });

  it('refuses several UIDs or an empty one with kube messages', () => {
    assert.throws(() => certificateUser(peer(['a', 'b'])), (e: unknown) => e instanceof AuthenticationError && e.message === 'expected 1 UID, but found multiple: [a b]');
    assert.throws(() => certificateUser(peer([''])), (e: unknown) => e instanceof AuthenticationError && e.message === 'UID cannot be an empty string');
  });

  it('ignores the attribute with the gate off', () => {
    assert.equal(certificateUser(peer(['a', 'b']), false)?.user.uid, undefined);
  });
});

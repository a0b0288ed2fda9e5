import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { insecureCipherNames, opensslCipherList, preferredCipherNames, validateCipherSuites } from './cipher-suites.js';

describe('cipher suites', () => {
  it("lists kube's preferred and insecure Go names, legacy CHACHA20 aliases among the preferred", () => {
    assert.ok(preferredCipherNames.includes('TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256'));
    assert.ok(preferredCipherNames.includes('TLS_AES_128_GCM_SHA256'));
    assert.ok(preferredCipherNames.includes('TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305'));
    assert.ok(insecureCipherNames.includes('TLS_RSA_WITH_AES_128_GCM_SHA256'));
    assert.ok(insecureCipherNames.includes('TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256'));
    assert.deepEqual([...preferredCipherNames], [...preferredCipherNames].sort());
    assert.equal(preferredCipherNames.filter((n) => insecureCipherNames.includes(n)).length, 0);
    assert.equal(preferredCipherNames.length + insecureCipherNames.length, 27);
  });

  it('maps Go names to OpenSSL names in Go preference order, TLS 1.3 suites always on', () => {
    assert.equal(
      opensslCipherList(['TLS_RSA_WITH_AES_128_CBC_SHA', 'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305', 'TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384']),
      'ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-CHACHA20-POLY1305:AES128-SHA:TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256',
    );
    // A TLS 1.3 name changes nothing, as in Go.
    assert.equal(opensslCipherList(['TLS_CHACHA20_POLY1305_SHA256']), 'TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256');
  });

  it("uses Go's default TLS 1.2 suites without the flag (ECDHE AEAD and CBC-SHA only)", () => {
    const list = opensslCipherList([]).split(':');
    assert.deepEqual(list.slice(0, 10), [
      'ECDHE-ECDSA-AES128-GCM-SHA256',
      'ECDHE-RSA-AES128-GCM-SHA256',
      'ECDHE-ECDSA-AES256-GCM-SHA384',
      'ECDHE-RSA-AES256-GCM-SHA384',
      'ECDHE-ECDSA-CHACHA20-POLY1305',
      'ECDHE-RSA-CHACHA20-POLY1305',
      'ECDHE-ECDSA-AES128-SHA',
      'ECDHE-RSA-AES128-SHA',
      'ECDHE-ECDSA-AES256-SHA',
      'ECDHE-RSA-AES256-SHA',
    ]);
    assert.equal(list.length, 13);
    assert.match(opensslCipherList([], true), /:@SECLEVEL=0$/);
  });

  it("refuses unknown names with kube's message, and suites this OpenSSL lacks", () => {
    assert.throws(() => validateCipherSuites(['TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256', 'tls_ecdhe_rsa_with_aes_128_gcm_sha256']), {
      message: "Cipher suite tls_ecdhe_rsa_with_aes_128_gcm_sha256 not supported or doesn't exist",
    });
    assert.throws(() => validateCipherSuites(['TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA']), /is not available in this server's TLS library \(OpenSSL /);
    assert.deepEqual(validateCipherSuites(['TLS_RSA_WITH_AES_256_GCM_SHA384']), ['TLS_RSA_WITH_AES_256_GCM_SHA384']);
  });
});

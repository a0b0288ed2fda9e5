import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tlsServingOptions } from './tls-options.js';

describe('kubelet TLS serving options', () => {
  it('maps Go version and cipher suite names to node:tls', () => {
    assert.deepEqual(tlsServingOptions(undefined, []), {});
    assert.deepEqual(tlsServingOptions('VersionTLS13', []), { minVersion: 'TLSv1.3' });
    assert.deepEqual(tlsServingOptions('VersionTLS12', ['TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256', 'TLS_AES_256_GCM_SHA384']), {
      minVersion: 'TLSv1.2',
      ciphers: 'ECDHE-ECDSA-AES128-GCM-SHA256:TLS_AES_256_GCM_SHA384',
    });
  });
  it('refuses names Go does not know', () => {
    assert.throws(() => tlsServingOptions('TLS12', []), /unrecognized tls version "TLS12"/);
    assert.throws(() => tlsServingOptions(undefined, ['TLS_MADE_UP']), /Cipher suite TLS_MADE_UP not supported or doesn't exist/);
  });
});

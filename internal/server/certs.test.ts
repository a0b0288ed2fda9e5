import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadServingCertificate } from './certs.js';

describe('serving certificates', () => {
  it('generates a CA and a serving certificate into the cert dir and reuses them', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'capstan-certs-'));
    try {
      const first = await loadServingCertificate({ certDir: dir, bindAddress: '0.0.0.0' });
      const leaf = new X509Certificate(first.cert);
      const ca = new X509Certificate(first.ca ?? '');
      assert.ok(leaf.verify(ca.publicKey), 'the CA signed the serving certificate');
      assert.ok(ca.ca, 'the CA is a CA');
      assert.match(leaf.subjectAltName ?? '', /DNS:localhost/);
      assert.match(leaf.subjectAltName ?? '', /IP Address:127\.0\.0\.1/);
      assert.ok(leaf.checkHost('kubernetes.default.svc'));
      const second = await loadServingCertificate({ certDir: dir, bindAddress: '0.0.0.0' });
      assert.equal(second.cert, first.cert, 'reused on restart');
      assert.equal(second.key, first.key);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('uses given certificate files and refuses half of the pair', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'capstan-certs-'));
    try {
      const gen = await loadServingCertificate({ certDir: dir, bindAddress: '0.0.0.0' });
      const given = await loadServingCertificate({ certFile: gen.certFile, keyFile: gen.keyFile, certDir: '/nonexistent', bindAddress: '0.0.0.0' });
      assert.equal(given.cert, gen.cert);
      await assert.rejects(loadServingCertificate({ certFile: gen.certFile, certDir: dir, bindAddress: '0.0.0.0' }), /must be given together/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

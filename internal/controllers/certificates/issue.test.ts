import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { describe, it } from 'node:test';
import { createCsrPem, generateKeyPem } from '../../nodeagent/certificate/csr.js';
import { createCertificateAuthority } from '../../server/pki.js';
import { certificateLifetimeMs, issueFromRequest, loadSigningAuthority } from './issue.js';
import { parseRequest } from './request.js';

const year = 8760 * 3_600_000;

describe('kcm signing policy', () => {
  it('honours expirationSeconds below the maximum, with a 10 minute floor', () => {
    assert.equal(certificateLifetimeMs(year, undefined), year);
    assert.equal(certificateLifetimeMs(year, 3600), 3_600_000);
    assert.equal(certificateLifetimeMs(year, 60), 600_000);
    assert.equal(certificateLifetimeMs(3_600_000, 7200), 3_600_000);
  });

  it('backdates 5 minutes, copies subject and SANs, and never outlives the CA', async () => {
    const ca = await createCertificateAuthority('short-ca', 1);
    const authority = await loadSigningAuthority(ca.certPem, ca.keyPem);
    const { pem } = await createCsrPem(await generateKeyPem(), { commonName: 'system:node:n1', organizations: ['system:nodes'], dnsNames: ['n1.local'], ips: ['10.0.0.5'] });
    const req = parseRequest({ metadata: {}, spec: { request: Buffer.from(pem).toString('base64') } });
    const now = new Date();
    const long = new X509Certificate(await issueFromRequest(authority, req, new Set(['digital signature', 'server auth']), year, now));
    assert.match(long.subject, /CN=system:node:n1/);
    assert.match(long.subjectAltName ?? '', /DNS:n1\.local/);
    assert.match(long.subjectAltName ?? '', /IP Address:10\.0\.0\.5/);
    assert.equal(long.ca, false);
    assert.equal(new Date(long.validFrom).getTime(), Math.floor((now.getTime() - 300_000) / 1000) * 1000);
    assert.equal(long.validTo, new X509Certificate(ca.certPem).validTo, 'capped at the CA expiry');
    const short = new X509Certificate(await issueFromRequest(authority, req, new Set(['client auth']), 3_600_000, now));
    assert.equal(new Date(short.validTo).getTime(), Math.floor((now.getTime() + 3_600_000) / 1000) * 1000, 'a short lifetime counts from now');
  });
});

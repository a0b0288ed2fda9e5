import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useEtcd } from '../../../../test/support/etcd.js';
import { statusOf } from '../../core/shared/testing.js';
import { createVia, setupModule, updateVia, versionOf } from '../../shared/testing.js';
import { certificateSigningRequestsModule } from './store.js';

const fx = useEtcd();
const request = Buffer.from(`-----BEGIN CERTIFICATE REQUEST-----
MIGTMEcCAQAwFDESMBAGA1UEAwwJZXhhbXBsZS0xMCowBQYDK2VwAyEA7zUxf153
4nf4WcgFzp4QFbwmDL1UmIn5KnIAPW7ww6ugADAFBgMrZXADQQBBBsG1HUvppMjh
0q2zAJcg2CBeYPZW5WCFEe8saMxPIAXQdWbrfxXoF3pVX7usjhfSwct1rNF+Zsoi
+mIgLqEC
-----END CERTIFICATE REQUEST-----
`).toString('base64');

describe('certificatesigningrequests store (etcd)', () => {
  it('approves through /approval (conditions only) and keeps approvals through /status', async () => {
    const { regs } = setupModule(fx, certificateSigningRequestsModule);
    const reg = versionOf(regs, 'v1');
    await createVia(reg, { metadata: { name: 'csr' }, spec: { signerName: 'example.com/signer', usages: ['client auth'], request } });
    const approved = await updateVia(
      reg,
      'csr',
      (o) => {
        o.status = { conditions: [{ type: 'Approved', status: 'True', reason: 'Test' }], certificate: 'Zm9v' };
        (o.spec as Record<string, unknown>).signerName = 'example.com/other';
      },
      { subresource: 'approval' },
    );
    const status = approved.status as Record<string, any>;
    assert.equal(status.certificate, undefined);
    assert.equal(status.conditions[0].type, 'Approved');
    assert.match(status.conditions[0].lastUpdateTime, /Z$/);
    assert.equal(status.conditions[0].lastTransitionTime, status.conditions[0].lastUpdateTime);
    assert.equal((approved.spec as Record<string, unknown>).signerName, 'example.com/signer');
    const viaStatus = await updateVia(reg, 'csr', (o) => (o.status = { certificate: 'Zm9v', conditions: [] }), { subresource: 'status' });
    assert.equal((viaStatus.status as Record<string, any>).conditions[0].type, 'Approved');
    assert.equal((viaStatus.status as Record<string, any>).certificate, 'Zm9v');
    const denied = await statusOf(
      updateVia(reg, 'csr', (o) => ((o.status as Record<string, any>).conditions.push({ type: 'Denied', status: 'True' })), { subresource: 'approval' }),
    );
    assert.equal(denied.code, 422);
    assert.match(denied.message ?? '', /Approved and Denied conditions are mutually exclusive/);
  });

  it('refuses a request that is not a CSR', async () => {
    const { regs } = setupModule(fx, certificateSigningRequestsModule);
    const bad = await statusOf(createVia(versionOf(regs, 'v1'), { metadata: { name: 'x' }, spec: { signerName: 'example.com/signer', usages: ['nope'], request: 'Zm9v' } }));
    assert.deepEqual(bad.details?.causes?.map((c) => `${c.field}: ${c.message}`), [
      'spec.request: Invalid value: "Zm9v": PEM block type must be CERTIFICATE REQUEST',
      'spec.usages[0]: Unsupported value: "nope": supported values: "any", "cert sign", "client auth", "code signing", "content commitment", "crl sign", "data encipherment", "decipher only", "digital signature", "email protection", "encipher only", "ipsec end system", "ipsec tunnel", "ipsec user", "key agreement", "key encipherment", "microsoft sgc", "netscape sgc", "ocsp signing", "s/mime", "server auth", "signing", "timestamping"',
    ]);
  });
});

import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Logger } from '../observability/logging.js';
import type { ServiceAccountOptions } from '../server/options/service-account.js';
import { loadServiceAccountTokenConfig } from './config.js';
import { keyIdOf } from './keys.js';

function recorder(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  const noop = (): void => undefined;
  return { warnings, info: noop, error: noop, debug: noop, v: noop, warn: (m: string) => warnings.push(m) } as unknown as Logger & { warnings: string[] };
}

const base: ServiceAccountOptions = { issuers: ['https://a', 'https://b'], keyFiles: [], signingKeyFile: '', lookup: true, maxExpirationSeconds: 0, extendExpiration: true, apiAudiences: ['https://a', 'https://b'] };

async function files(): Promise<{ dir: string; signing: string; verify: string; serving: string; signingKid: string; verifyKid: string; servingKid: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'sa-config-'));
  const signing = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const verify = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const serving = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  await writeFile(join(dir, 'signing.key'), signing.privateKey.export({ type: 'pkcs1', format: 'pem' }));
  await writeFile(join(dir, 'verify.pub'), verify.publicKey.export({ type: 'spki', format: 'pem' }) + (signing.publicKey.export({ type: 'spki', format: 'pem' }) as string));
  await writeFile(join(dir, 'serving.key'), serving.privateKey.export({ type: 'pkcs8', format: 'pem' }));
  return {
    dir,
    signing: join(dir, 'signing.key'),
    verify: join(dir, 'verify.pub'),
    serving: join(dir, 'serving.key'),
    signingKid: keyIdOf(signing.publicKey),
    verifyKid: keyIdOf(verify.publicKey),
    servingKid: keyIdOf(serving.publicKey),
  };
}

describe('service account token configuration', () => {
  it('verifies with the key files and the signing key (each key once) and signs as the first issuer', async () => {
    const f = await files();
    const cfg = await loadServiceAccountTokenConfig({ ...base, signingKeyFile: f.signing, keyFiles: [f.verify] }, { keyFile: f.serving }, recorder());
    assert.deepEqual(cfg.verificationKeys.map((k) => k.kid), [f.verifyKid, f.signingKid]);
    assert.equal(cfg.generator.issuer, 'https://a');
    assert.equal(cfg.legacyGenerator.issuer, 'kubernetes/serviceaccount');
    assert.equal(cfg.generator.kid, f.signingKid);
  });

  it('falls back to the serving key when no key file is given, as kube uses --tls-private-key-file', async () => {
    const f = await files();
    const cfg = await loadServiceAccountTokenConfig({ ...base, signingKeyFile: f.signing }, { keyFile: f.serving }, recorder());
    assert.deepEqual(cfg.verificationKeys.map((k) => k.kid), [f.servingKid, f.signingKid]);
  });

  it("fails to start with kube's messages", async () => {
    const f = await files();
    await assert.rejects(loadServiceAccountTokenConfig({ ...base, signingKeyFile: f.verify }, { keyFile: f.serving }, recorder()), {
      message: `failed to parse service-account-issuer-key-file: error reading private key file ${f.verify}: data does not contain a valid RSA or ECDSA private key`,
    });
    await assert.rejects(loadServiceAccountTokenConfig({ ...base, signingKeyFile: f.signing, keyFiles: [join(f.dir, 'nope')] }, { keyFile: f.serving }, recorder()), {
      message: `open ${join(f.dir, 'nope')}: no such file or directory`,
    });
  });

  it("warns as kube does when the maximum expiration defeats the extension", async () => {
    const f = await files();
    const log = recorder();
    await loadServiceAccountTokenConfig({ ...base, signingKeyFile: f.signing, maxExpirationSeconds: 3600 }, { keyFile: f.serving }, log);
    assert.deepEqual(log.warnings, [
      'service-account-extend-token-expiration is true, in order to correctly trigger safe transition logic, service-account-max-token-expiration must be set longer than 3607 seconds (currently 1h0m0s)',
      'service-account-extend-token-expiration is true, enabling tokens valid up to 31536000 seconds, which is longer than service-account-max-token-expiration set to 1h0m0s seconds',
    ]);
  });
});

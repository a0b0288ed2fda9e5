import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createCertificateAuthority } from '../server/pki.js';
import { algorithmOf, keyIdOf, privateKeyFromFile, privateKeyFromPem, publicKeysFromFile, publicKeysFromPem } from './keys.js';

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-384' });
const ed = generateKeyPairSync('ed25519');
const pem = (k: { export(o: object): string | Buffer }, type: string): string => k.export({ type, format: 'pem' }) as string;

describe('service account keys', () => {
  it('reads public keys from every PEM form kube reads: PKCS#1, PKCS#8 and SEC 1 private keys, PKIX and PKCS#1 public keys, certificates', async () => {
    const ca = await createCertificateAuthority('sa-test', 1);
    const text = [
      pem(rsa.privateKey, 'pkcs1'),
      pem(rsa.privateKey, 'pkcs8'),
      '-----BEGIN EC PARAMETERS-----\nBgUrgQQAIg==\n-----END EC PARAMETERS-----\n',
      pem(ec.privateKey, 'sec1'),
      pem(rsa.publicKey, 'spki'),
      pem(rsa.publicKey, 'pkcs1'),
      pem(ed.publicKey, 'spki'),
      ca.certPem,
    ].join('');
    const keys = publicKeysFromPem(text);
    assert.equal(keys.length, 6, 'the ed25519 key is skipped, everything else is a key');
    const rsaKid = keyIdOf(rsa.publicKey);
    assert.deepEqual(keys.slice(0, 2).map(keyIdOf), [rsaKid, rsaKid]);
    assert.equal(keyIdOf(keys[2]!), keyIdOf(ec.publicKey));
    assert.equal(algorithmOf(keys[2]!), 'ES384');
    assert.equal(algorithmOf(keys[0]!), 'RS256');
    assert.equal(keys[5]!.asymmetricKeyType, 'ec');
  });

  it("computes kube's key id: unpadded base64url SHA-256 of the PKIX DER", () => {
    const der = rsa.publicKey.export({ type: 'spki', format: 'der' });
    const expected = createHash('sha256').update(der).digest('base64').replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
    assert.equal(keyIdOf(rsa.publicKey), expected);
  });

  it('reads the first RSA or ECDSA private key; refuses files without one with kube errors', async () => {
    assert.equal(keyIdOf(privateKeyFromPem(pem(ed.privateKey, 'pkcs8') + pem(ec.privateKey, 'pkcs8'))), keyIdOf(ec.publicKey));
    assert.throws(() => privateKeyFromPem(pem(rsa.publicKey, 'spki')), { message: 'data does not contain a valid RSA or ECDSA private key' });
    assert.throws(() => publicKeysFromPem('hello'), { message: 'data does not contain any valid RSA or ECDSA public keys' });
    const dir = await mkdtemp(join(tmpdir(), 'sa-keys-'));
    const file = join(dir, 'pub.pem');
    await writeFile(file, pem(ed.publicKey, 'spki'));
    await assert.rejects(publicKeysFromFile(file), { message: `error reading public key file ${file}: data does not contain any valid RSA or ECDSA public keys` });
    await assert.rejects(privateKeyFromFile(file), { message: `error reading private key file ${file}: data does not contain a valid RSA or ECDSA private key` });
    await assert.rejects(privateKeyFromFile(join(dir, 'absent')), { message: `open ${join(dir, 'absent')}: no such file or directory` });
  });
});

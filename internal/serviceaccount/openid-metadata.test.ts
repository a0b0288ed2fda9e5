import assert from 'node:assert/strict';
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { publicKeyEntry } from './keys.js';
import { buildOpenIdMetadata, joinHostPort } from './openid-metadata.js';

const rsa = publicKeyEntry(generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey);
const ec = publicKeyEntry(generateKeyPairSync('ec', { namedCurve: 'P-521' }).publicKey);

describe('service account issuer discovery documents', () => {
  it("render kube's configuration, with jwks_uri from the external address, and a JWKS of every key", () => {
    const md = buildOpenIdMetadata('https://issuer.example', undefined, joinHostPort('2001:db8::1', 6443), [rsa, ec]);
    assert.equal(
      md.configJson,
      '{"issuer":"https://issuer.example","jwks_uri":"https://[2001:db8::1]:6443/openid/v1/jwks","response_types_supported":["id_token"],"subject_types_supported":["public"],"id_token_signing_alg_values_supported":["ES512","RS256"]}',
    );
    const set = JSON.parse(md.keysetJson);
    assert.deepEqual(Object.keys(set.keys[1]), ['use', 'kty', 'kid', 'crv', 'alg', 'x', 'y']);
    assert.deepEqual(set.keys.map((k: { kid: string; alg: string }) => [k.kid, k.alg]), [
      [rsa.kid, 'RS256'],
      [ec.kid, 'ES512'],
    ]);
    for (const [i, entry] of [rsa, ec].entries()) {
      const imported = createPublicKey({ key: set.keys[i], format: 'jwk' });
      assert.ok(imported.equals(entry.key));
    }
  });

  it('take --service-account-jwks-uri as given', () => {
    const md = buildOpenIdMetadata('https://issuer.example/path', 'https://keys.example/jwks', '', [rsa]);
    assert.equal(JSON.parse(md.configJson).jwks_uri, 'https://keys.example/jwks');
  });

  it("are not built for issuers relying parties cannot use, with kube's reasons", () => {
    assert.throws(() => buildOpenIdMetadata('kubernetes/serviceaccount', undefined, 'h:1', [rsa]), { message: 'issuer URL must use https scheme, got: kubernetes/serviceaccount' });
    assert.throws(() => buildOpenIdMetadata('http://issuer', undefined, 'h:1', [rsa]), { message: 'issuer URL must use https scheme, got: http://issuer' });
    assert.throws(() => buildOpenIdMetadata('https://issuer?a=b', undefined, 'h:1', [rsa]), { message: 'issuer URL may not include a query, got: https://issuer?a=b' });
    assert.throws(() => buildOpenIdMetadata('https://issuer#x', undefined, 'h:1', [rsa]), { message: 'issuer URL may not include a fragment, got: https://issuer#x' });
    assert.throws(() => buildOpenIdMetadata('https://issuer', 'http://keys', 'h:1', [rsa]), { message: 'jwksURI requires https scheme, parsed as: http://keys' });
    assert.throws(() => buildOpenIdMetadata('https://issuer', undefined, '', [rsa]), { message: 'either the JWKS URI or the default external address, or both, must be set' });
  });
});

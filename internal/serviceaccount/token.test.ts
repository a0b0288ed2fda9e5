import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { boundClaims, legacyClaims, splitServiceAccountUsername } from './claims.js';
import { decodeJwt, verifySignature } from './jwt.js';
import { publicKeyEntry } from './keys.js';
import { TokenGenerator } from './token-generator.js';

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const other = generateKeyPairSync('rsa', { modulusLength: 2048 });

function segments(token: string): { header: string; payload: string } {
  const [h, p] = token.split('.') as [string, string];
  return { header: Buffer.from(h, 'base64url').toString(), payload: Buffer.from(p, 'base64url').toString() };
}

describe('service account token claims', () => {
  const sa = { name: 'robot', uid: 'sa-uid' };

  it("bound tokens carry kube's claims, keys sorted at every level as Go writes them", () => {
    const gen = new TokenGenerator('https://issuer', rsa.privateKey);
    const claims = boundClaims({ namespace: 'ns', serviceAccount: sa, audiences: ['api'], expirationSeconds: 3600, now: 1000, jti: 'j', pod: { name: 'p', uid: 'pu' }, node: { name: 'n' }, warnAfterSeconds: 3607 });
    const { header, payload } = segments(gen.generate(claims));
    assert.equal(header, `{"alg":"RS256","kid":"${gen.kid}"}`);
    assert.equal(
      payload,
      '{"aud":["api"],"exp":4600,"iat":1000,"iss":"https://issuer","jti":"j","kubernetes.io":{"namespace":"ns","node":{"name":"n"},"pod":{"name":"p","uid":"pu"},"serviceaccount":{"name":"robot","uid":"sa-uid"},"warnafter":4607},"nbf":1000,"sub":"system:serviceaccount:ns:robot"}',
    );
  });

  it('a token bound to a secret cannot also be bound to a pod or node', () => {
    assert.throws(() => boundClaims({ namespace: 'ns', serviceAccount: sa, audiences: [], expirationSeconds: 1, secret: { name: 's' }, pod: { name: 'p' } }), {
      message: 'internal error, token can only be bound to one object type',
    });
  });

  it('legacy tokens have the legacy issuer and four private claims, no times', () => {
    const gen = new TokenGenerator('kubernetes/serviceaccount', ec.privateKey);
    const { header, payload } = segments(gen.generate(legacyClaims({ namespace: 'ns', name: 'robot', uid: 'u' }, 'robot-token')));
    assert.equal(JSON.parse(header).alg, 'ES256');
    assert.equal(
      payload,
      '{"iss":"kubernetes/serviceaccount","kubernetes.io/serviceaccount/namespace":"ns","kubernetes.io/serviceaccount/secret.name":"robot-token","kubernetes.io/serviceaccount/service-account.name":"robot","kubernetes.io/serviceaccount/service-account.uid":"u","sub":"system:serviceaccount:ns:robot"}',
    );
  });

  it('splits service account user names', () => {
    assert.deepEqual(splitServiceAccountUsername('system:serviceaccount:ns:robot'), { namespace: 'ns', name: 'robot' });
    assert.equal(splitServiceAccountUsername('system:serviceaccount:ns'), undefined);
    assert.equal(splitServiceAccountUsername('system:serviceaccount:ns:a:b'), undefined);
    assert.equal(splitServiceAccountUsername('alice'), undefined);
  });
});

describe('service account token signatures', () => {
  const keys = [publicKeyEntry(rsa.publicKey), publicKeyEntry(ec.publicKey)];

  it('verify RS256 and ES256 tokens against the key their kid names', () => {
    for (const k of [rsa.privateKey, ec.privateKey]) {
      const decoded = decodeJwt(new TokenGenerator('i', k).generate({ sub: 'x' }));
      assert.ok(decoded);
      verifySignature(decoded, keys);
    }
  });

  it('refuse unknown key ids, other keys and altered payloads', () => {
    const foreign = new TokenGenerator('i', other.privateKey).generate({ sub: 'x' });
    assert.throws(() => verifySignature(decodeJwt(foreign)!, keys), { message: 'invalid signature, no keys found' });
    // Without a kid every key is tried, and none verifies.
    const [, p, s] = foreign.split('.');
    const noKid = `${Buffer.from('{"alg":"RS256"}').toString('base64url')}.${p}.${s}`;
    assert.throws(() => verifySignature(decodeJwt(noKid)!, keys), { message: '[go-jose/go-jose: error in cryptographic primitive, go-jose/go-jose: error in cryptographic primitive]' });
    const mine = new TokenGenerator('i', rsa.privateKey).generate({ sub: 'x' });
    const [h2, , s2] = mine.split('.');
    const altered = `${h2}.${Buffer.from('{"iss":"i","sub":"admin"}').toString('base64url')}.${s2}`;
    assert.throws(() => verifySignature(decodeJwt(altered)!, keys), { message: 'go-jose/go-jose: error in cryptographic primitive' });
  });

  it('do not take tokens that are not compact JWS with an accepted algorithm', () => {
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"iss":"i"}').toString('base64url')}.`;
    assert.equal(decodeJwt(none), undefined);
    const hs = `${Buffer.from('{"alg":"HS256"}').toString('base64url')}.${Buffer.from('{"iss":"i"}').toString('base64url')}.c2ln`;
    assert.equal(decodeJwt(hs), undefined);
    assert.equal(decodeJwt('abc'), undefined);
    assert.equal(decodeJwt('a.b.c.d'), undefined);
    assert.equal(decodeJwt('e30.e30.!!'), undefined);
  });
});

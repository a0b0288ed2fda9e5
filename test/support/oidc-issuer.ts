/**
 * Test support: a real OpenID Connect issuer on loopback HTTPS (its own CA from pki.ts), serving
 * its discovery document and JWKS, signing ID tokens with jsonwebtoken. Keys can be added, published
 * or withheld (rotation); the issuer can start late (answering 503 at first) and counts every fetch.
 * It listens on a port the kernel picks, so parallel test processes never race for one.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import { join } from 'node:path';
import jwt from 'jsonwebtoken';
import type { AddressInfo } from 'node:net';
import { createCertificateAuthority, issueCertificate } from '../../internal/server/pki.js';

/** A signing key of the issuer. */
interface IssuerKey {
  readonly kid: string;
  readonly alg: jwt.Algorithm;
  readonly privateKey: KeyObject;
  readonly jwk: Record<string, unknown>;
  published: boolean;
}

/** The running issuer. */
export interface TestIssuer {
  /** The issuer URL (what tokens carry in "iss" and --oidc-issuer-url names). */
  readonly url: string;
  /** The CA that signed the issuer's serving certificate, written to caFile. */
  readonly caPem: string;
  readonly caFile: string;
  /** Fetches served so far. */
  readonly fetches: { discovery: number; jwks: number };
  /** Adds a key (an RSA key for RS and PS algorithms, EC for ES); published in the JWKS unless told otherwise. */
  addKey(kid: string, alg?: jwt.Algorithm, published?: boolean): void;
  /** Publishes or withdraws a key. */
  publish(kid: string, published: boolean): void;
  /** Signs claims with key kid (iss, aud, iat, exp filled in unless given; null removes one). */
  sign(claims: Record<string, unknown>, kid?: string, opts?: { alg?: jwt.Algorithm; noKid?: boolean }): string;
  /** What the discovery document says the issuer is (to test the mismatch check). */
  discoveryIssuer: string;
  /** Starts answering (when created with startNow false it answers 503 until then). */
  listen(): Promise<void>;
  stop(): Promise<void>;
}

function newKey(kid: string, alg: jwt.Algorithm): IssuerKey {
  const pair = alg.startsWith('ES')
    ? generateKeyPairSync('ec', { namedCurve: alg === 'ES256' ? 'P-256' : alg === 'ES384' ? 'P-384' : 'P-521' })
    : generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...pair.publicKey.export({ format: 'jwk' }), kid, use: 'sig', alg };
  return { kid, alg, privateKey: pair.privateKey, jwk, published: true };
}

/** Starts an issuer for clientId on a free port; dir receives its CA file. */
export async function startTestIssuer(dir: string, opts: { clientId?: string; startNow?: boolean; firstKid?: string } = {}): Promise<TestIssuer> {
  const ca = await createCertificateAuthority('test-oidc-issuer-ca');
  const serving = await issueCertificate(ca, { commonName: '127.0.0.1', usage: 'server', ips: ['127.0.0.1'], dns: ['localhost'] });
  const caFile = join(dir, 'oidc-ca.crt');
  await writeFile(caFile, ca.certPem);
  const keys = new Map<string, IssuerKey>();
  const fetches = { discovery: 0, jwks: 0 };
  let up = opts.startNow !== false;
  const server: Server = createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (!up) {
      res.writeHead(503).end('issuer not up yet');
    } else if (path === '/.well-known/openid-configuration') {
      fetches.discovery++;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ issuer: issuer.discoveryIssuer, jwks_uri: `${url}/keys`, id_token_signing_alg_values_supported: ['RS256'] }));
    } else if (path === '/keys') {
      fetches.jwks++;
      const published = [...keys.values()].filter((k) => k.published).map((k) => k.jwk);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: published }));
    } else {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let stopped = false;
  const issuer: TestIssuer = {
    url,
    caPem: ca.certPem,
    caFile,
    fetches,
    discoveryIssuer: url,
    addKey(kid, alg = 'RS256', published = true) {
      const k = newKey(kid, alg);
      k.published = published;
      keys.set(kid, k);
    },
    publish(kid, published) {
      const k = keys.get(kid);
      if (!k) throw new Error(`no key ${kid}`);
      k.published = published;
    },
    sign(claims, kid = opts.firstKid ?? 'key-1', signOpts = {}) {
      const k = keys.get(kid);
      if (!k) throw new Error(`no key ${kid}`);
      const now = Math.floor(Date.now() / 1000);
      const payload: Record<string, unknown> = { iss: url, aud: opts.clientId ?? 'capstan', iat: now, exp: now + 600, ...claims };
      for (const [name, v] of Object.entries(payload)) if (v === null) delete payload[name];
      return jwt.sign(payload, k.privateKey, { algorithm: signOpts.alg ?? k.alg, noTimestamp: true, ...(signOpts.noKid ? {} : { keyid: kid }) });
    },
    async listen() {
      up = true;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  issuer.addKey(opts.firstKid ?? 'key-1');
  return issuer;
}

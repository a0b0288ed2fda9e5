import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { after, before, beforeEach, describe, it } from 'node:test';
import { freePort } from '../../hack/local-etcd.js';
import { createCertificateAuthority, issueCertificate, type CertificateAuthority, type IssuedCertificate } from '../server/pki.js';
import { shouldRetry, WebhookClient, WebhookStatusError, type Backoff } from './client.js';

const fast: Backoff = { initialMs: 5, factor: 1.5, jitter: 0.2, steps: 5 };

describe('webhook client against a real HTTPS server', () => {
  let ca: CertificateAuthority;
  let clientCert: IssuedCertificate;
  let server: Server;
  let url: string;
  let handler: (req: IncomingMessage, res: ServerResponse, body: string) => void;
  const seen: Array<{ auth?: string; cn?: string; body: string }> = [];

  before(async () => {
    ca = await createCertificateAuthority('webhook-test-ca');
    const serving = await issueCertificate(ca, { commonName: '127.0.0.1', usage: 'server', ips: ['127.0.0.1'] });
    clientCert = await issueCertificate(ca, { commonName: 'kube-apiserver', usage: 'client' });
    server = createServer({ cert: serving.cert, key: serving.key, ca: ca.certPem, requestCert: true, rejectUnauthorized: false }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString();
        const sock = req.socket as TLSSocket;
        const peer = sock.authorized ? sock.getPeerCertificate() : undefined;
        seen.push({ ...(req.headers.authorization ? { auth: req.headers.authorization } : {}), ...(peer?.subject ? { cn: String(peer.subject.CN) } : {}), body });
        handler(req, res, body);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/review?x=1`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });
  beforeEach(() => {
    seen.length = 0;
    handler = (_req, res, body) => res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });

  it('presents a client certificate, trusts the CA, POSTs JSON to the exact URL', async () => {
    const paths: string[] = [];
    handler = (req, res, body) => {
      paths.push(req.url ?? '');
      res.writeHead(200).end(body);
    };
    const client = new WebhookClient({ server: url, ca: Buffer.from(ca.certPem), clientCert: Buffer.from(clientCert.cert), clientKey: Buffer.from(clientCert.key), insecureSkipTLSVerify: false });
    const res = await client.post({ kind: 'TokenReview', spec: { token: 't' } });
    client.close();
    assert.equal(res.status, 200);
    assert.deepEqual(JSON.parse(res.body.toString()), { kind: 'TokenReview', spec: { token: 't' } });
    assert.equal(seen[0]?.cn, 'kube-apiserver');
    assert.equal(seen[0]?.auth, undefined);
    assert.deepEqual(paths, ['/review?x=1']);
  });

  it('sends the kubeconfig token as a bearer token', async () => {
    const client = new WebhookClient({ server: url, ca: Buffer.from(ca.certPem), token: 'sekret', insecureSkipTLSVerify: false });
    await client.post({});
    client.close();
    assert.equal(seen[0]?.auth, 'Bearer sekret');
    assert.equal(seen[0]?.cn, undefined);
  });

  it('refuses a server its CA did not sign unless insecure-skip-tls-verify', async () => {
    const other = await createCertificateAuthority('someone-else');
    const strict = new WebhookClient({ server: url, ca: Buffer.from(other.certPem), insecureSkipTLSVerify: false }, { backoff: fast });
    await assert.rejects(strict.post({}), /self.signed|unable to verify|certificate/i);
    strict.close();
    assert.equal(seen.length, 0);
    const lax = new WebhookClient({ server: url, insecureSkipTLSVerify: true });
    assert.equal((await lax.post({})).status, 200);
    lax.close();
  });

  it('times out a call that does not finish, connect to last byte', async () => {
    handler = (_req, res) => {
      // Headers at once, the body never: an idle-socket timeout would not catch a trickle.
      res.writeHead(200);
      const t = setInterval(() => res.write(' '), 20);
      res.on('close', () => clearInterval(t));
    };
    const client = new WebhookClient({ server: url, ca: Buffer.from(ca.certPem), insecureSkipTLSVerify: false }, { timeoutMs: 300, backoff: fast });
    const start = Date.now();
    await assert.rejects(client.post({}), /Client.Timeout exceeded/);
    client.close();
    assert.ok(Date.now() - start < 2000, `took ${Date.now() - start}ms`);
    assert.equal(seen.length, 1, 'a timeout is not retried');
  });

  it('retries 500 with backoff, then succeeds', async () => {
    let calls = 0;
    handler = (_req, res, body) => {
      calls++;
      if (calls < 3) res.writeHead(500).end('boom');
      else res.writeHead(200).end(body);
    };
    const client = new WebhookClient({ server: url, ca: Buffer.from(ca.certPem), insecureSkipTLSVerify: false }, { backoff: fast });
    const res = await client.post({ n: 1 });
    client.close();
    assert.equal(res.status, 200);
    assert.equal(calls, 3);
  });

  it('gives up after the backoff steps with the last error', async () => {
    handler = (_req, res) => res.writeHead(504).end();
    const client = new WebhookClient({ server: url, ca: Buffer.from(ca.certPem), insecureSkipTLSVerify: false }, { backoff: { ...fast, steps: 3 } });
    await assert.rejects(client.post({}), (err: unknown) => err instanceof WebhookStatusError && err.status === 504 && err.reason === 'Timeout');
    client.close();
    assert.equal(seen.length, 3);
  });

  it('does not retry 4xx, nor 502/503 without Retry-After; keeps a Status message', async () => {
    for (const status of [400, 403, 404, 502, 503]) {
      seen.length = 0;
      handler = (_req, res) => res.writeHead(status).end();
      const client = new WebhookClient({ server: url, ca: Buffer.from(ca.certPem), insecureSkipTLSVerify: false }, { backoff: fast });
      await assert.rejects(client.post({}), (err: unknown) => err instanceof WebhookStatusError && err.status === status);
      client.close();
      assert.equal(seen.length, 1, `status ${status} retried`);
    }
    handler = (_req, res) => res.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify({ kind: 'Status', reason: 'Forbidden', message: 'no entry for you' }));
    const client = new WebhookClient({ server: url, ca: Buffer.from(ca.certPem), insecureSkipTLSVerify: false }, { backoff: fast });
    await assert.rejects(client.post({}), /^WebhookStatusError: no entry for you$/);
    client.close();
  });

  it('retries 429 and an answer with Retry-After', async () => {
    for (const [status, headers] of [
      [429, {}],
      [503, { 'retry-after': '1' }],
    ] as const) {
      let calls = 0;
      handler = (_req, res, body) => {
        if (++calls === 1) res.writeHead(status, headers).end();
        else res.writeHead(200).end(body);
      };
      const client = new WebhookClient({ server: url, ca: Buffer.from(ca.certPem), insecureSkipTLSVerify: false }, { backoff: fast });
      assert.equal((await client.post({})).status, 200);
      client.close();
      assert.equal(calls, 2, `status ${status}`);
    }
  });

  it('fails at once when nothing listens (kube retries a reset connection, not a refused one)', async () => {
    const port = await freePort();
    const client = new WebhookClient({ server: `https://127.0.0.1:${port}/`, insecureSkipTLSVerify: true }, { backoff: { ...fast, initialMs: 1000 } });
    const start = Date.now();
    await assert.rejects(client.post({}), /ECONNREFUSED/);
    client.close();
    assert.ok(Date.now() - start < 900, 'refused connections are not retried');
    assert.equal(shouldRetry(Object.assign(new Error('reset'), { code: 'ECONNRESET' })), true);
  });
});

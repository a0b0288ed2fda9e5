import assert from 'node:assert/strict';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createCertificateAuthority, issueCertificate } from '../../../server/pki.js';
import type { AuthenticationResolver } from './authentication.js';
import { CallError, HookClient } from './client.js';
import type { ServiceResolver } from './service-resolver.js';

const noAuth: AuthenticationResolver = { forHost: () => ({}), forService: () => ({}) };
const noServices = {} as ServiceResolver;

describe('webhook HTTPS client', () => {
  let port = 0;
  let caBundle = '';
  let otherBundle = '';
  const server = createServer();
  before(async () => {
    const ca = await createCertificateAuthority('client-test-ca');
    const other = await createCertificateAuthority('other-ca');
    const cert = await issueCertificate(ca, { commonName: '127.0.0.1', usage: 'server', ips: ['127.0.0.1'] });
    server.setSecureContext({ cert: cert.cert, key: cert.key });
    server.on('request', (req, res) => {
      if (req.url?.startsWith('/slow')) return; // never answers
      if (req.url?.startsWith('/status')) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('nope');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ url: req.url }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as AddressInfo).port;
    caBundle = Buffer.from(ca.certPem).toString('base64');
    otherBundle = Buffer.from(other.certPem).toString('base64');
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it('posts with the timeout parameter and verifies the server against caBundle', async () => {
    const c = new HookClient({ url: `https://127.0.0.1:${port}/hook`, caBundle }, noAuth, noServices);
    assert.deepEqual(await c.post({}, 2500), { url: '/hook?timeout=3s' });
    c.close();
    const wrong = new HookClient({ url: `https://127.0.0.1:${port}/hook`, caBundle: otherBundle }, noAuth, noServices);
    await assert.rejects(wrong.post({}, 1000), { message: `Post "https://127.0.0.1:${port}/hook?timeout=1s": tls: failed to verify certificate: x509: certificate signed by unknown authority` });
    wrong.close();
  });

  it("words failures as Go's client does", async () => {
    const slow = new HookClient({ url: `https://127.0.0.1:${port}/slow`, caBundle }, noAuth, noServices);
    await assert.rejects(slow.post({}, 200), { message: `Post "https://127.0.0.1:${port}/slow?timeout=1s": context deadline exceeded` });
    slow.close();
    const status = new HookClient({ url: `https://127.0.0.1:${port}/status`, caBundle }, noAuth, noServices);
    await assert.rejects(status.post({}, 1000), (err: CallError) => err.statusCode === 404 && err.message === 'the server could not find the requested resource');
    status.close();
    const refused = new HookClient({ url: 'https://127.0.0.1:1/x', caBundle }, noAuth, noServices);
    await assert.rejects(refused.post({}, 1000), { message: 'Post "https://127.0.0.1:1/x?timeout=1s": dial tcp 127.0.0.1:1: connect: connection refused' });
    refused.close();
  });
});

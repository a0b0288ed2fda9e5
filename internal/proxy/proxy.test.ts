import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { StatusError } from '../apierrors/status-error.js';
import { proxyHttp, proxyPrefix, rewriteLocation } from './http-proxy.js';
import { isGlobalUnicast } from './proxyable-ip.js';
import { joinHostPort, joinPreservingTrailingSlash, splitSchemeNamePort } from './scheme-name-port.js';

describe('proxy names and addresses', () => {
  it('splits name, name:port and scheme:name:port as kube does', () => {
    assert.deepEqual(splitSchemeNamePort('web'), { scheme: '', name: 'web', port: '' });
    assert.deepEqual(splitSchemeNamePort('web:8080'), { scheme: '', name: 'web', port: '8080' });
    assert.deepEqual(splitSchemeNamePort('https:web:443'), { scheme: 'https', name: 'web', port: '443' });
    assert.equal(splitSchemeNamePort('ftp:web:21'), undefined);
    assert.equal(splitSchemeNamePort(':80'), undefined);
    assert.equal(splitSchemeNamePort('a:b:c:d'), undefined);
  });

  it('joins paths keeping a trailing slash, and host ports with IPv6 brackets', () => {
    assert.equal(joinPreservingTrailingSlash('', ''), '');
    assert.equal(joinPreservingTrailingSlash('', '/a/b/'), '/a/b/');
    assert.equal(joinPreservingTrailingSlash('/base', 'x'), '/base/x');
    assert.equal(joinHostPort('fd00::1', '80'), '[fd00::1]:80');
    assert.equal(joinHostPort('10.0.0.1', ''), '10.0.0.1');
  });

  it('proxies only to global unicast addresses', () => {
    for (const ip of ['10.1.2.3', '192.0.2.2', 'fd00::2', '2001:db8::1']) assert.equal(isGlobalUnicast(ip), true, ip);
    for (const ip of ['127.0.0.1', '0.0.0.0', '169.254.1.1', '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'ff02::1', '', 'nope']) assert.equal(isGlobalUnicast(ip), false, ip);
  });
});

describe('redirects through the proxy', () => {
  const prefix = '/api/v1/namespaces/ns/pods/p/proxy';
  it('finds the proxy prefix of a request path', () => {
    assert.equal(proxyPrefix(`${prefix}/a/b/`, '/a/b/'), prefix);
    assert.equal(proxyPrefix(`${prefix}/`, '/'), prefix);
    assert.equal(proxyPrefix(prefix, ''), prefix);
  });

  it('rewrites a Location on the backend, leaves other hosts and relative paths alone', () => {
    assert.equal(rewriteLocation('/login/', '10.0.0.1:80', 'api:6443', prefix), `https://api:6443${prefix}/login/`);
    assert.equal(rewriteLocation('http://10.0.0.1:80/x?y=1', '10.0.0.1:80', 'api:6443', prefix), `https://api:6443${prefix}/x?y=1`);
    assert.equal(rewriteLocation('https://example.com/x', '10.0.0.1:80', 'api:6443', prefix), 'https://example.com/x');
    assert.equal(rewriteLocation('next', '10.0.0.1:80', 'api:6443', prefix), 'next');
  });
});

describe('proxyHttp', () => {
  let backend: Server;
  let front: Server;
  let target = 0;
  let frontPort = 0;
  const seen: Array<Record<string, unknown>> = [];

  before(async () => {
    backend = createServer((req, res) => {
      seen.push({ url: req.url, headers: req.headers });
      res.writeHead(200, { 'content-type': 'text/plain', connection: 'close' });
      req.pipe(res);
    });
    await new Promise<void>((r) => backend.listen(0, '127.0.0.1', r));
    target = (backend.address() as AddressInfo).port;
    front = createServer((req, res) => {
      const port = req.url?.startsWith('/dead') ? '1' : String(target);
      proxyHttp(req, res, { scheme: 'http', host: `127.0.0.1:${port}`, path: '/inner', subpath: '' }).catch((err: unknown) => {
        res.writeHead(err instanceof StatusError ? err.code : 500);
        res.end(err instanceof Error ? err.message : '');
      });
    });
    await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
    frontPort = (front.address() as AddressInfo).port;
  });
  after(() => {
    backend.close();
    front.close();
  });

  function call(path: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: frontPort, path, method: 'POST', headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  it('streams the body both ways with the query, dropping credentials and hop-by-hop headers', async () => {
    const res = await call('/outer/?q=1', 'hello', { authorization: 'Bearer secret', 'impersonate-user': 'x', 'x-custom': 'kept', connection: 'x-drop', 'x-drop': '1' });
    assert.deepEqual(res, { status: 200, body: 'hello' });
    const last = seen.at(-1) as { url: string; headers: Record<string, string> };
    assert.equal(last.url, '/inner/?q=1');
    assert.equal(last.headers.authorization, undefined);
    assert.equal(last.headers['impersonate-user'], undefined);
    assert.equal(last.headers['x-drop'], undefined);
    assert.equal(last.headers['x-custom'], 'kept');
    assert.equal(last.headers['x-forwarded-uri'], '/outer/');
    assert.equal(last.headers['x-forwarded-proto'], 'https');
  });

  it('answers 503 with kube message when the backend refuses', async () => {
    const res = await call('/dead', '');
    assert.deepEqual(res, { status: 503, body: 'error trying to reach service: dial tcp 127.0.0.1:1: connect: connection refused' });
  });
});

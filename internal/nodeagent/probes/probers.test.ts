import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import { expandCommand } from './exec-probe.js';
import { healthServiceDefinition, type HealthCheckRequest, type HealthCheckResponse } from './grpc-health.js';
import { goDuration, grpcProbe } from './grpc-probe.js';
import { httpProbe, probeRequestHeaders } from './http-probe.js';
import { resolvePort } from './run-probe.js';
import { tcpProbe } from './tcp-probe.js';

let server: http.Server;
let port = 0;
let lastHeaders: http.IncomingHttpHeaders = {};
let grpcServer: grpc.Server;
let grpcPort = 0;
let closedPort = 0;

before(async () => {
  server = http.createServer((req, res) => {
    lastHeaders = req.headers;
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/ok') res.end('fine');
    else if (url.pathname === '/fail') {
      res.statusCode = 500;
      res.end('secret details');
    } else if (url.pathname === '/hop') {
      res.writeHead(302, { location: '/ok' });
      res.end();
    } else if (url.pathname === '/away') {
      res.writeHead(301, { location: 'http://localhost:1/elsewhere' });
      res.end('moved');
    } else if (url.pathname === '/loop') {
      res.writeHead(302, { location: '/loop' });
      res.end();
    } else if (url.pathname === '/slow') setTimeout(() => res.end('late'), 1500);
    else if (url.pathname === '/big') res.end('x'.repeat(100_000));
    else {
      res.statusCode = 404;
      res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  grpcServer = new grpc.Server();
  grpcServer.addService(healthServiceDefinition, {
    Check: (call: grpc.ServerUnaryCall<HealthCheckRequest, HealthCheckResponse>, cb: grpc.sendUnaryData<HealthCheckResponse>) => {
      if (call.request.service === 'missing') cb({ code: grpc.status.NOT_FOUND, details: 'unknown service' });
      else cb(null, { status: call.request.service === 'down' ? 2 : 1 });
    },
  });
  grpcPort = await new Promise<number>((resolve, reject) => grpcServer.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))));
  const probe = net.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise((r) => probe.close(r));
});

after(async () => {
  server?.close();
  grpcServer?.forceShutdown();
});

describe('probers', () => {
  it('httpGet: 2xx succeeds with kubelet headers; 500 fails without the body', async () => {
    assert.deepEqual(await httpProbe(`http://127.0.0.1:${port}/ok`, [{ name: 'x-custom', value: 'a' }], 1000), { result: 'success', output: 'fine' });
    assert.equal(lastHeaders['user-agent'], 'kube-probe/1.33');
    assert.equal(lastHeaders.accept, '*/*');
    assert.equal(lastHeaders['x-custom'], 'a');
    assert.deepEqual(await httpProbe(`http://127.0.0.1:${port}/fail`, [], 1000), { result: 'failure', output: 'HTTP probe failed with statuscode: 500' });
    await httpProbe(`http://127.0.0.1:${port}/ok`, [{ name: 'user-agent', value: 'mine' }, { name: 'Host', value: 'example.test' }], 1000);
    assert.equal(lastHeaders['user-agent'], 'mine');
    assert.equal(lastHeaders.host, 'example.test');
    assert.deepEqual(probeRequestHeaders([{ name: 'Accept', value: '' }]), { 'User-Agent': ['kube-probe/1.33'] });
  });

  it('httpGet: same-host redirects are followed, others stop with a warning, loops fail', async () => {
    assert.deepEqual(await httpProbe(`http://127.0.0.1:${port}/hop`, [], 1000), { result: 'success', output: 'fine' });
    assert.deepEqual(await httpProbe(`http://127.0.0.1:${port}/away`, [], 1000), { result: 'warning', output: 'Probe terminated redirects, Response body: moved' });
    assert.deepEqual(await httpProbe(`http://127.0.0.1:${port}/loop`, [], 1000), { result: 'failure', output: `Get "http://127.0.0.1:${port}/loop": stopped after 10 redirects` });
  });

  it('httpGet: timeouts, refused connections and the body limit', async () => {
    assert.deepEqual(await httpProbe(`http://127.0.0.1:${port}/slow`, [], 300), {
      result: 'failure',
      output: `Get "http://127.0.0.1:${port}/slow": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`,
    });
    assert.deepEqual(await httpProbe(`http://127.0.0.1:${closedPort}/`, [], 1000), {
      result: 'failure',
      output: `Get "http://127.0.0.1:${closedPort}/": dial tcp 127.0.0.1:${closedPort}: connect: connection refused`,
    });
    const big = await httpProbe(`http://127.0.0.1:${port}/big`, [], 1000);
    assert.equal(big.result, 'success');
    assert.equal(big.output.length, 10 * 1024);
  });

  it('tcpSocket', async () => {
    assert.deepEqual(await tcpProbe('127.0.0.1', port, 1000), { result: 'success', output: '' });
    assert.deepEqual(await tcpProbe('127.0.0.1', closedPort, 1000), { result: 'failure', output: `dial tcp 127.0.0.1:${closedPort}: connect: connection refused` });
  });

  it('grpc: SERVING succeeds, other statuses and errors fail with kubelet texts', async () => {
    assert.deepEqual(await grpcProbe('127.0.0.1', grpcPort, '', 1000), { result: 'success', output: 'service healthy' });
    assert.deepEqual(await grpcProbe('127.0.0.1', grpcPort, 'down', 1000), { result: 'failure', output: 'service unhealthy (responded with "NOT_SERVING")' });
    assert.deepEqual(await grpcProbe('127.0.0.1', grpcPort, 'missing', 1000), { result: 'failure', output: 'error: health rpc probe failed: rpc error: code = NotFound desc = unknown service' });
    assert.deepEqual(await grpcProbe('127.0.0.1', closedPort, '', 500), { result: 'failure', output: `timeout: failed to connect service "127.0.0.1:${closedPort}" within 1s: context deadline exceeded` });
    // An HTTP server is no gRPC health server.
    assert.equal((await grpcProbe('127.0.0.1', port, '', 1000)).result, 'failure');
    assert.equal(goDuration(60_000), '1m0s');
  });

  it('ports by number or container port name; command expansion from literal env', () => {
    const container = { name: 'app', ports: [{ name: 'http', containerPort: 8080 }] };
    assert.equal(resolvePort(81, container), 81);
    assert.equal(resolvePort('http', container), 8080);
    assert.throws(() => resolvePort('grpc', container), /couldn't find port: grpc/);
    assert.deepEqual(expandCommand(['echo', '$(A)', '$$(A)', '$(B)', '$(C)'], [{ name: 'A', value: 'x' }, { name: 'B', valueFrom: {} }]), ['echo', 'x', '$(A)', '$(B)', '$(C)']);
  });
});

/**
 * The node agent's /exec, /attach and /portForward against a real containerd: WebSocket v5 (the
 * translator to containerd's SPDY), SPDY (joined byte for byte to containerd) and kubelet's
 * refusals, driven by clients of the test's own.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:https';
import type { Duplex } from 'node:stream';
import WebSocket from 'ws';
import { SpdyConnection } from '../../internal/nodeagent/streaming/spdy/connection.js';
import { startStreamingNode, type StreamingNode } from '../support/streaming-node.js';

let node: StreamingNode;
before(async () => {
  node = await startStreamingNode(`/tmp/capstan-stream-node-${process.pid}`);
});
after(async () => {
  await node?.stop();
});

function execQuery(command: string[], flags: Record<string, boolean>): string {
  const q = new URLSearchParams();
  for (const c of command) q.append('command', c);
  for (const [k, v] of Object.entries(flags)) if (v) q.append(k, '1');
  return q.toString();
}

/** A v5 WebSocket session: sends messages once open, collects channels until the server closes. */
function wsSession(path: string, protocols: string[], onOpen: (ws: WebSocket) => void): Promise<{ protocol: string; channels: Record<number, string> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`wss://${node.host}${path}`, protocols, { rejectUnauthorized: false });
    const channels: Record<number, string> = {};
    ws.on('open', () => onOpen(ws));
    ws.on('message', (data: Buffer) => {
      if (data.length === 0) return;
      channels[data[0]!] = (channels[data[0]!] ?? '') + data.subarray(1).toString();
    });
    ws.on('close', () => resolve({ protocol: ws.protocol, channels }));
    ws.on('error', reject);
  });
}

test('WebSocket v5: stdout, the exit code in the error channel Status, stdin closed by the CLOSE signal', async () => {
  const ok = await wsSession(`/exec/default/web/main?${execQuery(['sh', '-c', 'echo out; echo err >&2'], { output: true, error: true })}`, ['v5.channel.k8s.io', 'v4.channel.k8s.io'], () => undefined);
  assert.equal(ok.protocol, 'v5.channel.k8s.io');
  assert.equal(ok.channels[1], 'out\n');
  assert.equal(ok.channels[2], 'err\n');
  assert.equal(JSON.parse(ok.channels[3] ?? '{}').status, 'Success');

  const failed = await wsSession(`/exec/default/web/main?${execQuery(['sh', '-c', 'exit 3'], { output: true })}`, ['v5.channel.k8s.io'], () => undefined);
  const status = JSON.parse(failed.channels[3] ?? '{}');
  assert.equal(status.status, 'Failure');
  assert.equal(status.reason, 'NonZeroExitCode');
  assert.deepEqual(status.details.causes, [{ reason: 'ExitCode', message: '3' }]);

  const stdin = await wsSession(`/exec/default/web/main?${execQuery(['cat'], { input: true, output: true })}`, ['v5.channel.k8s.io'], (ws) => {
    ws.send(Buffer.concat([Buffer.from([0]), Buffer.from('piped through stdin')]));
    ws.send(Buffer.from([255, 0]));
  });
  assert.equal(stdin.channels[1], 'piped through stdin');
  assert.equal(JSON.parse(stdin.channels[3] ?? '{}').status, 'Success');
});

test('WebSocket v4 (no v5 offered): joined to containerd, which speaks it', async () => {
  const session = await wsSession(`/exec/default/web/main?${execQuery(['sh', '-c', 'echo via-v4; exit 4'], { output: true })}`, ['v4.channel.k8s.io'], () => undefined);
  assert.equal(session.protocol, 'v4.channel.k8s.io');
  assert.equal(session.channels[1], 'via-v4\n');
  assert.deepEqual(JSON.parse(session.channels[3] ?? '{}').details.causes, [{ reason: 'ExitCode', message: '4' }]);
});

test('WebSocket v5: bulk data both ways (past SPDY\'s 64 KiB initial window)', async () => {
  const big = await wsSession(`/exec/default/web/main?${execQuery(['sh', '-c', "head -c 500000 /dev/zero | tr '\\0' a"], { output: true })}`, ['v5.channel.k8s.io'], () => undefined);
  assert.equal(big.channels[1]?.length, 500000);
  assert.ok(/^a+$/.test(big.channels[1] ?? ''));
  const counted = await wsSession(`/exec/default/web/main?${execQuery(['wc', '-c'], { input: true, output: true })}`, ['v5.channel.k8s.io'], (ws) => {
    for (let i = 0; i < 10; i++) ws.send(Buffer.concat([Buffer.from([0]), Buffer.alloc(30000, 98)]));
    ws.send(Buffer.from([255, 0]));
  });
  assert.equal(counted.channels[1]?.trim(), '300000');
});

test('WebSocket v5 with a TTY: the resize channel sets the terminal size', async () => {
  const session = await wsSession(`/exec/default/web/main?${execQuery(['sh', '-c', 'sleep 0.5; stty size'], { input: true, output: true, tty: true })}`, ['v5.channel.k8s.io'], (ws) => {
    ws.send(Buffer.concat([Buffer.from([4]), Buffer.from(JSON.stringify({ Width: 123, Height: 45 }))]));
  });
  assert.equal(session.channels[1]?.trim(), '45 123');
});

test('SPDY: joined to containerd byte for byte (the negotiated protocol, streams, exit code)', async () => {
  const path = `/exec/default/web/main?${execQuery(['sh', '-c', 'echo out; echo err >&2; exit 2'], { output: true, error: true })}`;
  const { socket, protocol } = await new Promise<{ socket: Duplex; protocol: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: Number(node.host.split(':')[1]), path, method: 'POST', agent: node.agent, headers: { Connection: 'Upgrade', Upgrade: 'SPDY/3.1', 'X-Stream-Protocol-Version': ['v4.channel.k8s.io', 'channel.k8s.io'] } });
    req.on('upgrade', (res, s) => resolve({ socket: s, protocol: String(res.headers['x-stream-protocol-version']) }));
    req.on('response', (res) => reject(new Error(`no upgrade: ${res.statusCode}`)));
    req.on('error', reject);
    req.end();
  });
  assert.equal(protocol, 'v4.channel.k8s.io');
  const conn = new SpdyConnection(socket, { client: true, flowControl: false });
  const read = async (type: string): Promise<string> => {
    const s = await conn.openStream({ streamtype: [type] });
    s.end();
    return new Promise((resolve) => {
      let text = '';
      s.on('data', (c: Buffer) => (text += c.toString()));
      s.on('end', () => resolve(text));
      s.on('close', () => resolve(text));
    });
  };
  const [error, stdout, stderr] = await Promise.all([read('error'), read('stdout'), read('stderr')]);
  assert.equal(stdout, 'out\n');
  assert.equal(stderr, 'err\n');
  assert.deepEqual(JSON.parse(error).details.causes, [{ reason: 'ExitCode', message: '2' }]);
  conn.destroy();
});

function plain(path: string, upgrade: boolean): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers = upgrade ? { Connection: 'Upgrade', Upgrade: 'SPDY/3.1', 'X-Stream-Protocol-Version': 'v4.channel.k8s.io' } : {};
    const req = request({ host: '127.0.0.1', port: Number(node.host.split(':')[1]), path, method: 'POST', agent: node.agent, headers });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('upgrade', () => reject(new Error('unexpected upgrade')));
    req.on('error', reject);
    req.end();
  });
}

test("refusals carry kubelet's codes and messages", async () => {
  assert.deepEqual(await plain('/exec/default/nope/main?output=1&command=ls', true), { status: 404, body: 'pod does not exist\n' });
  assert.deepEqual(await plain('/exec/default/web/zzz?output=1&command=ls', true), { status: 404, body: 'container not found ("zzz")\n' });
  assert.deepEqual(await plain('/exec/default/web/main?command=ls', true), { status: 400, body: 'you must specify at least 1 of stdin, stdout, stderr\n' });
  assert.deepEqual(await plain('/exec/default/web/main?output=1&command=ls', false), { status: 400, body: 'Upgrade request required\n' });
  assert.deepEqual(await plain('/portForward/default/web', false), { status: 400, body: 'Upgrade request required\n' });
});

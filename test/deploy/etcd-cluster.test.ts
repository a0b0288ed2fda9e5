/**
 * The compose file's etcd members, run for real: each member's command line from
 * deploy/compose/compose.yaml with its addresses moved to loopback ports, and the certificates
 * hack/gen-deploy-certs.ts writes. The three form one cluster over peer TLS; the API servers'
 * client certificate writes through one member and reads through another; a client without a
 * certificate is refused.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Etcd3 } from 'etcd3';
import { composePlan, generateDeployPki } from '../../hack/deploy-pki.js';
import { freePort } from '../../hack/local-etcd.js';
import { composeFile, composeMounts, flagValue, hostPathOf, loadCompose } from './manifests.js';

const compose = loadCompose();
const names = ['etcd-1', 'etcd-2', 'etcd-3'];
const certsDir = join(dirname(composeFile), 'certs');
let out = '';
const children: ChildProcess[] = [];
const clientURLs: string[] = [];

/** The member's compose command with every address and file moved to this machine. */
function localCommand(name: string, ports: Map<string, number>, dataDir: string): string[] {
  const svc = compose.services[name]!;
  const ip = svc.networks!.capstan!.ipv4_address!;
  return svc.command.map((arg) => {
    let a = arg.replace(/(\d+\.\d+\.\d+\.\d+):(\d+)/g, (all, host: string, port: string) => {
      const key = host === '0.0.0.0' ? `${ip}:${port}` : all;
      const local = ports.get(key);
      assert.ok(local !== undefined, `${name}: no local port for ${key}`);
      return `127.0.0.1:${local}`;
    });
    const value = a.slice(a.indexOf('=') + 1);
    if (a.startsWith('--data-dir=')) a = `--data-dir=${dataDir}`;
    else if (value.startsWith('/')) {
      const hit = hostPathOf(composeMounts(svc), value);
      assert.ok(hit?.path.startsWith(`${certsDir}/`), `${name}: ${value} is not a mounted certificate`);
      a = `${a.slice(0, a.indexOf('=') + 1)}${join(out, hit!.path.slice(certsDir.length + 1))}`;
    }
    return a;
  });
}

function tlsFiles(dir: string, name: string): { ca: Buffer; cert: Buffer; key: Buffer } {
  return { ca: readFileSync(join(dir, 'ca.crt')), cert: readFileSync(join(dir, `${name}.crt`)), key: readFileSync(join(dir, `${name}.key`)) };
}

/** GET url with the given TLS client files; resolves the status and body. */
function get(url: string, tls: { ca: Buffer; cert?: Buffer; key?: Buffer }): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { ...tls, timeout: 2000 }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}

before(async () => {
  out = await mkdtemp(join(tmpdir(), 'capstan-etcd-tls-'));
  await generateDeployPki(out, composePlan);
  const ports = new Map<string, number>();
  for (const name of names) {
    const ip = compose.services[name]!.networks!.capstan!.ipv4_address!;
    for (const port of ['2379', '2380', '2381']) {
      let local = await freePort();
      while ([...ports.values()].includes(local)) local = await freePort();
      ports.set(`${ip}:${port}`, local);
    }
  }
  for (const name of names) {
    const args = localCommand(name, ports, join(out, 'data', name));
    clientURLs.push(flagValue(args, 'advertise-client-urls')!);
    const child = spawn(process.env.ETCD_BIN ?? 'etcd', args, { stdio: ['ignore', 'ignore', process.env.CAPSTAN_TEST_LOG === '1' ? 'inherit' : 'ignore'] });
    children.push(child);
  }
  const health = tlsFiles(join(out, 'etcd-1', 'pki', 'etcd'), 'healthcheck-client');
  const deadline = Date.now() + 20_000;
  for (const url of clientURLs) {
    for (;;) {
      const r = await get(`${url}/health`, health).catch((err: Error) => ({ status: 0, body: err.message }));
      if (r.status === 200 && JSON.parse(r.body).health === 'true') break;
      for (const c of children) if (c.exitCode !== null) throw new Error(`an etcd member exited with ${c.exitCode}`);
      if (Date.now() > deadline) throw new Error(`${url} not healthy: ${r.status} ${r.body}`);
      await new Promise((res) => setTimeout(res, 100));
    }
  }
});

after(async () => {
  await Promise.all(children.map((c) => (c.exitCode !== null ? undefined : new Promise((res) => {
    c.once('exit', res);
    // The data is thrown away: no need to wait for a leader to hand over.
    c.kill('SIGKILL');
  }))));
  if (out) await rm(out, { recursive: true, force: true });
});

describe('compose etcd members, run with the generated certificates', () => {
  it('form one cluster over peer TLS; the API servers\' client certificate writes on one member and reads on another', async () => {
    const client = tlsFiles(join(out, 'apiserver-1', 'pki'), 'apiserver-etcd-client');
    client.ca = readFileSync(join(out, 'apiserver-1', 'pki', 'etcd', 'ca.crt'));
    const at = (url: string) => new Etcd3({ hosts: [url], credentials: { rootCertificate: client.ca, certChain: client.cert, privateKey: client.key } });
    const first = at(clientURLs[0]!);
    const last = at(clientURLs[2]!);
    try {
      const members = await first.cluster.memberList({});
      assert.deepEqual(members.members.map((m) => m.name).sort(), names);
      await first.put('/registry/deploy-test').value('written through etcd-1');
      assert.equal(await last.get('/registry/deploy-test').string(), 'written through etcd-1');
    } finally {
      first.close();
      last.close();
    }
  });

  it('refuses a client without a certificate (--client-cert-auth)', async () => {
    const ca = readFileSync(join(out, 'etcd-1', 'pki', 'etcd', 'ca.crt'));
    const r = await get(`${clientURLs[0]}/health`, { ca }).catch((err: Error) => ({ status: 0, body: err.message }));
    assert.notEqual(r.status, 200, `answered without a client certificate: ${r.body}`);
  });
});

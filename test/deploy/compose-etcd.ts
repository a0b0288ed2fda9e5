/**
 * Test support: the compose file's etcd members run for real on this machine. Each member's
 * command line from deploy/compose/compose.yaml, with its addresses moved to free loopback ports and
 * its files to what hack/gen-deploy-certs.ts wrote in out; the local etcd binary (ETCD_BIN).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { dirname, join } from 'node:path';
import { freePort } from '../../hack/local-etcd.js';
import { composeFile, composeMounts, flagValue, hostPathOf, loadCompose } from './manifests.js';

const certsDir = join(dirname(composeFile), 'certs');

/** The running members. */
export interface ComposeEtcd {
  /** Each member's advertised client URL, in the order of the compose file. */
  readonly clientURLs: readonly string[];
  /** Maps a compose address (ip:port) to the local one (127.0.0.1:port). */
  readonly addresses: ReadonlyMap<string, string>;
  /** Kills every member (their data is thrown away). */
  stop(): Promise<void>;
}

/** A TLS client's files from a folder of the certificate script's output. */
export function tlsFiles(dir: string, name: string, caFile = join(dir, 'ca.crt')): { ca: Buffer; cert: Buffer; key: Buffer } {
  return { ca: readFileSync(caFile), cert: readFileSync(join(dir, `${name}.crt`)), key: readFileSync(join(dir, `${name}.key`)) };
}

/** GET url with the given TLS files; resolves the status and body. */
export function httpsGet(url: string, tls: { ca: Buffer; cert?: Buffer; key?: Buffer }): Promise<{ status: number; body: string }> {
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

/** Replaces every ip:port of arg found in addresses (0.0.0.0 stands for self). */
export function moveAddresses(arg: string, addresses: ReadonlyMap<string, string>, self: string): string {
  return arg.replace(/(\d+\.\d+\.\d+\.\d+):(\d+)/g, (all, host: string, port: string) => {
    const key = host === '0.0.0.0' ? `${self}:${port}` : all;
    const local = addresses.get(key);
    assert.ok(local !== undefined, `no local address for ${key}`);
    return local;
  });
}

/** Starts the compose file's etcd members with the certificates in out and waits until each is healthy. */
export async function startComposeEtcd(out: string): Promise<ComposeEtcd> {
  const compose = loadCompose();
  const names = Object.keys(compose.services).filter((n) => n.startsWith('etcd-'));
  const addresses = new Map<string, string>();
  const taken = new Set<number>();
  for (const name of names) {
    const ip = compose.services[name]!.networks!.capstan!.ipv4_address!;
    for (const port of ['2379', '2380', '2381']) {
      let local = await freePort();
      while (taken.has(local)) local = await freePort();
      taken.add(local);
      addresses.set(`${ip}:${port}`, `127.0.0.1:${local}`);
    }
  }
  const children: ChildProcess[] = [];
  const clientURLs: string[] = [];
  const stop = async (): Promise<void> => {
    await Promise.all(children.map((c) => (c.exitCode !== null || c.signalCode !== null ? undefined : new Promise((res) => {
      c.once('exit', res);
      c.kill('SIGKILL');
    }))));
  };
  for (const name of names) {
    const svc = compose.services[name]!;
    const ip = svc.networks!.capstan!.ipv4_address!;
    const args = svc.command.map((arg) => {
      const a = moveAddresses(arg, addresses, ip);
      const eq = a.indexOf('=');
      const value = a.slice(eq + 1);
      if (a.startsWith('--data-dir=')) return `--data-dir=${join(out, 'data', name)}`;
      if (!value.startsWith('/')) return a;
      const hit = hostPathOf(composeMounts(svc), value);
      assert.ok(hit?.path.startsWith(`${certsDir}/`), `${name}: ${value} is not a mounted certificate`);
      return `${a.slice(0, eq + 1)}${join(out, hit!.path.slice(certsDir.length + 1))}`;
    });
    clientURLs.push(flagValue(args, 'advertise-client-urls')!);
    children.push(spawn(process.env.ETCD_BIN ?? 'etcd', args, { stdio: ['ignore', 'ignore', process.env.CAPSTAN_TEST_LOG === '1' ? 'inherit' : 'ignore'] }));
  }
  try {
    const health = tlsFiles(join(out, names[0]!, 'pki', 'etcd'), 'healthcheck-client');
    const deadline = Date.now() + 20_000;
    for (const url of clientURLs) {
      for (;;) {
        const r = await httpsGet(`${url}/health`, health).catch((err: Error) => ({ status: 0, body: err.message }));
        if (r.status === 200 && JSON.parse(r.body).health === 'true') break;
        for (const c of children) if (c.exitCode !== null) throw new Error(`an etcd member exited with ${c.exitCode}`);
        if (Date.now() > deadline) throw new Error(`${url} not healthy: ${r.status} ${r.body}`);
        await new Promise((res) => setTimeout(res, 100));
      }
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { clientURLs, addresses, stop };
}

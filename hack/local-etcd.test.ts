/**
 * The throwaway etcd script: as a program it prints its endpoint, serves, and on SIGTERM stops
 * etcd and removes its temporary data dir.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

describe('hack/local-etcd', () => {
  it('prints its endpoint, answers health, and cleans up on SIGTERM', async () => {
    const script = fileURLToPath(new URL('./local-etcd.js', import.meta.url));
    const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('ETCD_DATA_DIR=')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`exited early with ${code}: ${out}`)));
    });
    const endpoint = /ETCD_ENDPOINT=(\S+)/.exec(out)?.[1] ?? '';
    const dataDir = /ETCD_DATA_DIR=(\S+)/.exec(out)?.[1] ?? '';
    assert.match(endpoint, /^http:\/\/127\.0\.0\.1:\d+$/);
    const health = (await (await fetch(`${endpoint}/health`)).json()) as { health: string };
    assert.equal(health.health, 'true');
    assert.ok(existsSync(dataDir));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
    assert.equal(existsSync(dataDir), false, 'the temporary data dir is removed');
    await assert.rejects(fetch(`${endpoint}/health`), 'etcd is stopped');
  });
});

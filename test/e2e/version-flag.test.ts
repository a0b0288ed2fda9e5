/**
 * --version as an operator uses it: the real binary prints and exits for --version and
 * --version=raw, refuses a version that does not match its own with kube's message, and a server
 * started with --version=vX.Y.Z... reports that version at /version, as `kubectl version` shows.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { kubectl } from '../support/kubectl.js';
import { useServer } from '../support/server.js';

const main = join(fileURLToPath(new URL('.', import.meta.url)), '../../cmd/apiserver/main.js');

function runBinary(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [main, ...args], { timeout: 20_000 }, (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  });
}

describe('capstan-apiserver --version', () => {
  it('prints the version and exits 0', async () => {
    assert.deepEqual(await runBinary('--version'), { code: 0, stdout: 'Kubernetes v1.33.0+capstan\n', stderr: '' });
    const raw = await runBinary('--version=raw');
    assert.equal(raw.code, 0);
    assert.match(raw.stdout, /^version\.Info\{Major:"1", Minor:"33", .*GitVersion:"v1\.33\.0\+capstan", .*\}\n$/);
    assert.deepEqual(await runBinary('--version=v1.33.0-rc.2', '--version'), { code: 0, stdout: 'Kubernetes v1.33.0-rc.2\n', stderr: '' });
  });

  it('refuses a version whose major, minor or patch differ', async () => {
    const r = await runBinary('--version=v2.0.0');
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'Error: invalid argument "v2.0.0" for "--version" flag: version "v2.0.0" must match major/minor/patch of default version "v1.33.0+capstan"\n');
  });
});

describe('a server started with --version=v1.33.0-custom.1', () => {
  // The flag's parsed form (in-process servers take options, not argv).
  const fx = useServer({ gitVersion: 'v1.33.0-custom.1' });

  it('reports it at /version and to kubectl version', async () => {
    const v = (await fx.request('GET', '/version')).json();
    assert.deepEqual([v.major, v.minor, v.gitVersion], ['1', '33', 'v1.33.0-custom.1']);
    const out = await kubectl(fx.kubeconfigPath, ['version', '-o', 'json']);
    assert.equal(JSON.parse(out.stdout).serverVersion.gitVersion, 'v1.33.0-custom.1');
  });
});

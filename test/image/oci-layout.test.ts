/** Unit tests of oci-layout.ts: reading an image config from a layout, naming what stopped ctr run. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { diagnoseRunFailure, readImageConfig } from './oci-layout.js';

async function putBlob(layout: string, value: unknown): Promise<string> {
  const text = JSON.stringify(value);
  const hex = createHash('sha256').update(text).digest('hex');
  await writeFile(join(layout, 'blobs', 'sha256', hex), text);
  return `sha256:${hex}`;
}

describe('oci-layout', () => {
  it('reads the config of a tagged image through index and manifest, and refuses an unknown tag', async (t) => {
    const layout = await mkdtemp(join(tmpdir(), 'capstan-oci-'));
    t.after(() => rm(layout, { recursive: true, force: true }));
    await mkdir(join(layout, 'blobs', 'sha256'), { recursive: true });
    const config = { os: 'linux', architecture: 'amd64', config: { Entrypoint: ['node', '/app/main.js'], User: '65532:65532' } };
    const manifest = { schemaVersion: 2, config: { digest: await putBlob(layout, config) }, layers: [] };
    const digest = await putBlob(layout, manifest);
    await writeFile(join(layout, 'index.json'), JSON.stringify({ schemaVersion: 2, manifests: [{ digest, annotations: { 'org.opencontainers.image.ref.name': '1.2.3' } }] }));
    const got = await readImageConfig(layout, 'example/apiserver:1.2.3');
    assert.deepEqual(got.ref, { name: 'example/apiserver', tag: '1.2.3', image: 'example/apiserver:1.2.3' });
    assert.deepEqual(got.config, config);
    await assert.rejects(readImageConfig(layout, 'example/apiserver:9.9.9'), /no manifest tagged 9\.9\.9/);
  });

  it('names the missing piece of the machine from runc errors, and passes unknown output through', () => {
    const cgroup = diagnoseRunFailure(1, 'ctr: failed to create shim task: OCI runtime create failed: runc create failed: unable to apply cgroup configuration: mkdir /sys/fs/cgroup/cpu/default: read-only file system');
    assert.match(cgroup, /missing piece: cgroups/);
    assert.match(cgroup, /read-only file system/);
    assert.match(diagnoseRunFailure(1, 'failed to mount /tmp/x: overlay: invalid argument'), /missing piece: overlay mounts/);
    assert.match(diagnoseRunFailure(1, 'runc create failed: unable to start container process: error during container init: pivot_root .: invalid argument'), /missing piece: pivot_root/);
    const other = diagnoseRunFailure(3, 'Error: something else');
    assert.match(other, /code 3; the container exited before \/readyz answered/);
    assert.match(other, /something else/);
  });
});

/**
 * The container image, built and run here: hack/build-image.sh (skipped when current), the OCI
 * config checked (entrypoint, non-root user, port), the archive imported into containerd and run
 * with `ctr run` on the host network against a local etcd, until /readyz answers ok over HTTPS with
 * the certificate the server generated in a mounted cert dir. Any piece of the machine that stops a
 * step (root, containerd, runc, cgroups, mounts) fails the test with that piece named.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chown, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { freePort, startLocalEtcd } from '../../hack/local-etcd.js';
import { testNamespace, useContainerd } from './containerd.js';
import { diagnoseRunFailure, readImageConfig } from './oci-layout.js';
import { readyz, runTool } from '../support/image-shell.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const out = process.env.IMAGE_OUT ?? join(root, '_output', 'image');
const nonRootUid = 65532;

const sh = (cmd: string, args: readonly string[], timeoutMs: number): ReturnType<typeof runTool> => runTool(root, cmd, args, timeoutMs);

describe('container image', { timeout: 480_000 }, () => {
  it('builds, runs with ctr as uid 65532 against etcd and answers /readyz ok over HTTPS', async (t) => {
    assert.equal(process.getuid?.(), 0, 'the image test needs root: mmdebstrap --mode=root, containerd and runc all do');
    const tools = await sh(join(root, 'hack', 'install-image-tools.sh'), [], 300_000);
    assert.equal(tools.code, 0, `hack/install-image-tools.sh failed (mmdebstrap, umoci, containerd, runc):\n${tools.output}`);

    const started = Date.now();
    const build = await sh(join(root, 'hack', 'build-image.sh'), [], 300_000);
    assert.equal(build.code, 0, `hack/build-image.sh failed:\n${build.output}`);
    t.diagnostic(`build-image: ${((Date.now() - started) / 1000).toFixed(0)} s; ${build.output.trim().split('\n').slice(-2).join(' / ')}`);

    const { ref, config } = await readImageConfig(join(out, 'oci'), (await readFile(join(out, 'image-name'), 'utf8')).trim());
    assert.deepEqual(config.config.Entrypoint, ['node', '/app/dist/cmd/apiserver/main.js']);
    assert.equal(config.config.User, `${nonRootUid}:${nonRootUid}`);
    assert.ok(config.config.ExposedPorts && '6443/tcp' in config.config.ExposedPorts, 'port 6443/tcp exposed');
    assert.equal(config.os, 'linux');

    const containerd = await useContainerd();
    t.after(() => containerd.stop());
    t.diagnostic(`containerd at ${containerd.address}, snapshotter ${containerd.snapshotter}`);
    const importStarted = Date.now();
    await containerd.ctr(['images', 'import', '--snapshotter', containerd.snapshotter, '--base-name', ref.name, join(out, `capstan-${ref.tag}.oci.tar`)], 300_000);
    t.diagnostic(`ctr images import: ${((Date.now() - importStarted) / 1000).toFixed(0)} s`);
    t.after(() => containerd.ctr(['images', 'rm', '--sync', ref.image, `${ref.name}:${ref.tag}-kube${config.config.Labels?.['io.capstan.kubernetes-version']}`]).catch(() => ''));

    const etcd = await startLocalEtcd();
    t.after(() => etcd.stop());
    const certDir = await mkdtemp(join(tmpdir(), 'capstan-image-certs-'));
    t.after(() => rm(certDir, { recursive: true, force: true }));
    // The server writes its self-signed pair there as uid 65532, as it would on a volume in a pod.
    await chown(certDir, nonRootUid, nonRootUid);
    const port = await freePort();
    const id = `capstan-image-test-${process.pid}`;
    const args = ['--address', containerd.address, '-n', testNamespace, 'run', '--rm', '--net-host',
      '--runtime', 'io.containerd.runc.v2', '--snapshotter', containerd.snapshotter,
      '--mount', `type=bind,src=${certDir},dst=/var/run/kubernetes,options=rbind:rw`,
      ref.image, id,
      // ctr replaces the image's entrypoint and command with these: the entrypoint checked above, then flags.
      ...config.config.Entrypoint, `--etcd-servers=${etcd.endpoint}`, `--secure-port=${port}`, '--cert-dir=/var/run/kubernetes'];
    const container = spawn('ctr', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    container.stdout.on('data', (d: Buffer) => (output += d.toString()));
    container.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((r) => container.once('close', (code) => r(code)));
    t.after(async () => {
      if (container.exitCode !== null) return;
      await containerd.ctr(['task', 'kill', '--signal', 'SIGTERM', id]).catch(() => '');
      const stopped = await Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 20_000).unref())]);
      if (!stopped) await containerd.ctr(['task', 'kill', '--signal', 'SIGKILL', id]).catch(() => '');
      await exited;
      await containerd.ctr(['containers', 'rm', id]).catch(() => '');
    });

    const deadline = Date.now() + 90_000;
    let last = '';
    for (;;) {
      if (container.exitCode !== null) assert.fail(diagnoseRunFailure(container.exitCode, output));
      assert.ok(Date.now() < deadline, `/readyz did not answer ok within 90 s (last: ${last}); container output:\n${output}`);
      try {
        const answer = await readyz(port, await readFile(join(certDir, 'ca.crt'), 'utf8'));
        if (answer.status === 200 && answer.body === 'ok') break;
        last = `${answer.status} ${answer.body.slice(0, 200)}`;
      } catch (err) {
        last = (err as Error).message;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    const key = await stat(join(certDir, 'apiserver.key'));
    assert.equal(key.uid, nonRootUid, 'the server runs as uid 65532: the serving key it wrote is owned by it');
    t.diagnostic(`readyz ok from ${ref.image} on https://127.0.0.1:${port} after ${((Date.now() - started) / 1000).toFixed(0)} s in all`);

    await containerd.ctr(['task', 'kill', '--signal', 'SIGTERM', id]);
    const code = await Promise.race([exited, new Promise<string>((r) => setTimeout(() => r('still running'), 30_000).unref())]);
    assert.equal(code, 0, `the server stops cleanly on SIGTERM; container output:\n${output}`);
    t.diagnostic(`stopped cleanly on SIGTERM after ${((Date.now() - started) / 1000).toFixed(0)} s in all`);
  });
});

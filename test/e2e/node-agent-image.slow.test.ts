/**
 * End to end, slow (`make test-node-image`, not `make test`): the Capstan API server itself as a
 * static pod of the node agent, from the container image hack/build-image.sh builds (`make image`;
 * rebuilt here only when its inputs changed). The image archive is imported into the test's
 * containerd; a manifest in --pod-manifest-path runs it on the host network against the test's etcd
 * (its own --etcd-prefix) with its cert dir on a hostPath; its mirror pod shows Running and the
 * server answers /readyz ok over HTTPS with the certificate it generated there.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chown, mkdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePort } from '../../hack/local-etcd.js';
import { eventually, useNodeAgent, waitForPod } from '../support/node-agent.js';
import { readyz, runTool } from '../support/image-shell.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const out = join(root, '_output', 'image');
const nonRootUid = 65532;
const fx = useNodeAgent({ tag: 'na-image' });

const sh = (cmd: string, args: readonly string[], timeoutMs: number): ReturnType<typeof runTool> => runTool(root, cmd, args, timeoutMs);

describe('node agent: the Capstan API server as a static pod from its image', { timeout: 840_000 }, () => {
  it('imports the image, runs it from --pod-manifest-path and serves /readyz ok', async (t) => {
    const tools = await sh(join(root, 'hack', 'install-image-tools.sh'), [], 300_000);
    assert.equal(tools.code, 0, `hack/install-image-tools.sh failed:\n${tools.output}`);
    const build = await sh(join(root, 'hack', 'build-image.sh'), [], 600_000);
    assert.equal(build.code, 0, `hack/build-image.sh failed:\n${build.output}`);
    const image = (await readFile(join(out, 'image-name'), 'utf8')).trim();
    const tag = image.slice(image.lastIndexOf(':') + 1);
    // CRI looks images up by their normalized reference (docker.io/...), so import under that name.
    const baseName = `docker.io/${image.slice(0, image.lastIndexOf(':'))}`;
    await promisify(execFile)('ctr', ['--address', fx.containerd.socket, '-n', 'k8s.io', 'images', 'import', '--base-name', baseName, join(out, `capstan-${tag}.oci.tar`)], { timeout: 300_000 });
    t.diagnostic(`imported ${baseName}:${tag}`);

    const certDir = join(fx.server.dir, 'static-apiserver-certs');
    await mkdir(certDir, { recursive: true });
    await chown(certDir, nonRootUid, nonRootUid);
    const port = await freePort();
    await fx.writeManifest('capstan-apiserver.json', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'capstan-apiserver', namespace: 'kube-system', labels: { component: 'capstan-apiserver' } },
      spec: {
        hostNetwork: true,
        terminationGracePeriodSeconds: 10,
        containers: [
          {
            name: 'apiserver',
            image,
            imagePullPolicy: 'Never',
            args: [`--etcd-servers=${fx.server.etcd.endpoint}`, '--etcd-prefix=/static-capstan', `--secure-port=${port}`, '--cert-dir=/var/run/kubernetes'],
            volumeMounts: [{ name: 'certs', mountPath: '/var/run/kubernetes' }],
          },
        ],
        volumes: [{ name: 'certs', hostPath: { path: certDir, type: 'Directory' } }],
      },
    });
    const mirror = `capstan-apiserver-${fx.nodeName}`;
    await waitForPod(fx, 'kube-system', mirror, (p) => p.status?.phase === 'Running', 'to run as a mirror pod', 120_000);
    let last = '';
    await eventually(
      async () => {
        try {
          const answer = await readyz(port, await readFile(join(certDir, 'ca.crt'), 'utf8'));
          last = `${answer.status} ${answer.body.slice(0, 200)}`;
          return answer.status === 200 && answer.body === 'ok' ? true : undefined;
        } catch (err) {
          last = (err as Error).message;
          return undefined;
        }
      },
      90_000,
      () => `/readyz ok on https://127.0.0.1:${port} (last: ${last})`,
    );
    const logs = await fx.kubectl(['logs', '-n', 'kube-system', mirror, '--tail=5']);
    assert.equal(logs.code, 0, `kubectl logs of the static API server: ${logs.stderr}`);
    t.diagnostic(`the static API server answered /readyz ok; its last log lines:\n${logs.stdout}`);
  });
});

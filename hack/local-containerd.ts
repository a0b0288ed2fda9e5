/**
 * A containerd of the project's own for the node agent (tests and `make run-node`): its own root,
 * state, gRPC socket and CNI configuration under one directory, so several run side by side and
 * none touches the machine's /var/lib/containerd. The CRI plugin gets restrict_oom_score_adj (the
 * node agent runs pods without raising oom_score_adj), runc, the pause image built offline by
 * hack/node-images/build.sh as the sandbox image, and a CNI bridge of its own (its own bridge name
 * and /24) with host-local IPAM, portmap and loopback. The offline images are imported into the
 * k8s.io namespace, so no registry is needed. Needs root, containerd, runc and the CNI plugins
 * (hack/install-node.sh installs them).
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdir, writeFile, rm, access } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { connectCri } from '../internal/nodeagent/runtime/cri-client.js';

const run = promisify(execFile);

/** Stops and removes every pod sandbox (and so its containers) of the runtime at endpoint. */
async function removeAllPods(endpoint: string): Promise<void> {
  const cri = connectCri(endpoint, 10_000);
  try {
    const { items = [] } = await cri.runtime.ListPodSandbox({});
    for (const sandbox of items) {
      await cri.runtime.StopPodSandbox({ pod_sandbox_id: sandbox.id ?? '' }).catch(() => undefined);
      await cri.runtime.RemovePodSandbox({ pod_sandbox_id: sandbox.id ?? '' }).catch(() => undefined);
    }
  } finally {
    cri.close();
  }
}

/** A running containerd. */
export interface LocalContainerd {
  /** unix:///.../containerd.sock, for --container-runtime-endpoint. */
  readonly endpoint: string;
  readonly socket: string;
  readonly dir: string;
  /** The pod CIDR its bridge hands addresses from (10.x.y.0/24). */
  readonly podCIDR: string;
  readonly bridge: string;
  /** Stops containerd, removes every pod it ran (their shims and network) and its directory. */
  stop(): Promise<void>;
}

/** Images hack/node-images/build.sh makes, by name in the k8s.io namespace. */
export const busyboxImage = 'capstan.local/busybox:1';
export const pauseImage = 'capstan.local/pause:1';

function configToml(dir: string, cniConfDir: string): string {
  return [
    'version = 2',
    `root = "${dir}/root"`,
    `state = "${dir}/state"`,
    '[grpc]',
    `  address = "${dir}/containerd.sock"`,
    '[ttrpc]',
    `  address = "${dir}/containerd.sock.ttrpc"`,
    '[debug]',
    `  address = ""`,
    '[metrics]',
    `  address = ""`,
    '[plugins."io.containerd.grpc.v1.cri"]',
    '  restrict_oom_score_adj = true',
    `  sandbox_image = "${pauseImage}"`,
    '  [plugins."io.containerd.grpc.v1.cri".cni]',
    '    bin_dir = "/usr/lib/cni"',
    `    conf_dir = "${cniConfDir}"`,
    '  [plugins."io.containerd.grpc.v1.cri".containerd]',
    '    default_runtime_name = "runc"',
    '    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]',
    '      runtime_type = "io.containerd.runc.v2"',
    '',
  ].join('\n');
}

function cniConf(bridge: string, subnet: string, dataDir: string): string {
  return JSON.stringify(
    {
      cniVersion: '1.0.0',
      name: bridge,
      plugins: [
        { type: 'bridge', bridge, isGateway: true, ipMasq: true, hairpinMode: true, ipam: { type: 'host-local', ranges: [[{ subnet }]], routes: [{ dst: '0.0.0.0/0' }], dataDir } },
        { type: 'portmap', capabilities: { portMappings: true } },
        { type: 'loopback' },
      ],
    },
    null,
    2,
  );
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(() => true, () => false);
}

/** The project's root (two levels above dist/hack or hack). */
function projectRoot(): string {
  return resolve(new URL('.', import.meta.url).pathname, '..', '..');
}

/** Builds (when stale) and returns the offline image archives. */
export async function buildNodeImages(): Promise<{ busybox: string; pause: string }> {
  const root = projectRoot();
  await run(join(root, 'hack', 'node-images', 'build.sh'), [], { cwd: root });
  return { busybox: join(root, '_output', 'node-images', 'busybox.tar'), pause: join(root, '_output', 'node-images', 'pause.tar') };
}

/** Starts a containerd in dir (created; its previous content removed) and imports the images. */
export async function startContainerd(dir: string): Promise<LocalContainerd> {
  await rm(dir, { recursive: true, force: true });
  const cniConfDir = join(dir, 'cni-conf');
  await mkdir(cniConfDir, { recursive: true });
  // A bridge name (at most 15 bytes) and a /24 of 10.100-227.x.0 derived from the directory, so
  // containerds in different directories do not share either.
  const h = createHash('sha256').update(dir).digest();
  const bridge = `cap${h.toString('hex').slice(0, 8)}`;
  const podCIDR = `10.${100 + (h[4]! % 128)}.${h[5]!}.0/24`;
  await writeFile(join(cniConfDir, '10-capstan.conflist'), cniConf(bridge, podCIDR, join(dir, 'cni-ipam')));
  await writeFile(join(dir, 'config.toml'), configToml(dir, cniConfDir));
  const socket = join(dir, 'containerd.sock');
  const child: ChildProcess = spawn('containerd', ['--config', join(dir, 'config.toml')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-8192);
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  for (let i = 0; !(await exists(socket)); i++) {
    if (child.exitCode !== null || i > 200) {
      child.kill('SIGKILL');
      throw new Error(`containerd did not start: ${stderr.trim().split('\n').slice(-5).join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const images = await buildNodeImages();
  for (const [name, archive] of [
    [busyboxImage, images.busybox],
    [pauseImage, images.pause],
  ] as const) {
    await run('ctr', ['--address', socket, '-n', 'k8s.io', 'images', 'import', '--base-name', name.replace(/:[^:]*$/, ''), archive]);
  }
  return {
    endpoint: `unix://${socket}`,
    socket,
    dir,
    podCIDR,
    bridge,
    async stop() {
      // Pods first (their shims outlive containerd otherwise), then containerd itself.
      await removeAllPods(`unix://${socket}`).catch(() => undefined);
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000).unref())]);
      if (child.exitCode === null) child.kill('SIGKILL');
      await run('ip', ['link', 'delete', bridge]).catch(() => undefined);
      await run('umount', ['-R', join(dir, 'state')]).catch(() => undefined);
      await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    },
  };
}

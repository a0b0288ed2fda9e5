/**
 * `make run-node`: `make run`'s etcd and API server (with NodeRestriction added to the default
 * admission plugins and the --kubelet-client-* flags that let it reach the node), a containerd of
 * its own under _output/containerd (hack/local-containerd.ts, with the offline busybox and pause
 * images), and the node agent as this machine's node (system:node:<hostname>) on kubelet's ports
 * 10250 and 10248, its files in .local/node (static pods: .local/node/manifests). Writes the admin's
 * kubeconfig to .local/kubeconfig and runs until Ctrl-C, which stops the agent, its pods and
 * containerd, the API server and etcd, in that order. Needs root.
 *
 *   node dist/hack/run-node.js [API server flags...] [-- node agent flags...]
 */
import { hostname } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startContainerd, busyboxImage } from './local-containerd.js';
import type { CertificateAuthority } from '../internal/server/pki.js';
import { startNodeAgent, writeKubeletClientPki, writeNodeAgentFiles, type KubeletClientPki } from './local-node.js';
import { ensureClientCA, localPkiPaths } from './local-pki.js';
import { startLocalControlPlane, type LocalControlPlane } from './run-local.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

async function main(argv: readonly string[]): Promise<void> {
  if (process.getuid?.() !== 0) throw new Error('the node agent needs root (containerd, runc, the CNI bridge and cgroups): run `sudo make run-node`');
  const split = argv.indexOf('--');
  const serverArgs = split >= 0 ? argv.slice(0, split) : argv;
  const agentArgs = split >= 0 ? argv.slice(split + 1) : [];
  const local = join(root, '.local');
  const clientCA = await ensureClientCA(localPkiPaths(join(local, 'pki')));
  const pki = await writeKubeletClientPki(join(local, 'node-apiserver-pki'), clientCA);
  const admission = serverArgs.some((a) => a.startsWith('--enable-admission-plugins')) ? [] : ['--enable-admission-plugins=NodeRestriction'];
  const cp = await startLocalControlPlane(serverArgs, [...admission, ...pki.apiServerFlags]);
  let stopping = false;
  const stops: Array<() => Promise<void>> = [() => cp.stop()];
  const stopAll = async (code: number): Promise<never> => {
    if (!stopping) {
      stopping = true;
      for (const stop of stops) await stop().catch((err: unknown) => process.stderr.write(`run-node: ${(err as Error).message}\n`));
    }
    process.exit(code);
  };
  cp.onExit((code) => {
    process.stderr.write(`API server exited with code ${code}\n`);
    void stopAll(code);
  });
  process.once('SIGINT', () => void stopAll(0));
  process.once('SIGTERM', () => void stopAll(0));

  try {
    await startNode(cp, clientCA, pki, agentArgs, stops, () => stopping, stopAll);
  } catch (err) {
    process.stderr.write(`run-node: ${(err as Error).message}\n`);
    await stopAll(1);
  }
}

/** Starts containerd and the node agent; pushes how to stop each to the front of stops. */
async function startNode(
  cp: LocalControlPlane,
  clientCA: CertificateAuthority,
  pki: KubeletClientPki,
  agentArgs: readonly string[],
  stops: Array<() => Promise<void>>,
  stopping: () => boolean,
  stopAll: (code: number) => Promise<never>,
): Promise<void> {
  const containerd = await startContainerd(join(root, '_output', 'containerd'));
  stops.unshift(() => containerd.stop());
  process.stdout.write(`containerd: ${containerd.endpoint} (pods on ${containerd.bridge}, ${containerd.podCIDR})\n`);
  const nodeName = hostname().toLowerCase();
  const files = await writeNodeAgentFiles({
    dir: join(cp.local, 'node'),
    nodeName,
    server: `https://127.0.0.1:${cp.port}`,
    serverCA: cp.ca,
    clientCA,
    pki,
    runtimeEndpoint: containerd.endpoint,
    port: 10250,
    healthzPort: 10248,
  });
  // Its own process group: Ctrl-C reaches this script, which stops the agent before containerd.
  const agent = startNodeAgent([...files.args, ...agentArgs], { output: 'inherit', detached: true });
  stops.unshift(() => agent.stop(30_000));
  void agent.exited.then((code) => {
    if (stopping()) return;
    process.stderr.write(`node agent exited (${code})\n`);
    void stopAll(typeof code === 'number' && code !== 0 ? code : 1);
  });
  const kc = cp.kubeconfigPath;
  process.stdout.write(
    `node agent: node ${nodeName} (system:node:${nodeName}), kubeconfig ${files.kubeconfig}, config ${files.configFile}\n` +
      `static pods: put manifests in ${files.manifestDir}\n` +
      `kubeconfig (admin): ${kc}\n` +
      `  kubectl --kubeconfig ${kc} get nodes\n` +
      `  kubectl --kubeconfig ${kc} run hello --image=${busyboxImage} --image-pull-policy=Never --overrides='{"spec":{"nodeName":"${nodeName}"}}' -- sh -c 'echo hello; sleep 3600'\n` +
      `Press Ctrl-C to stop.\n`,
  );
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`run-node: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});

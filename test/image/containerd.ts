/**
 * A containerd for the image test: the one at $CONTAINERD_ADDRESS when that socket answers, else a
 * private one started here with its own root, state and socket under a temporary dir (the CRI plugin
 * off: ctr needs none of it), stopped and removed afterwards. Every failure names the missing piece.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, openSync, closeSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A containerd that ctr can talk to, the snapshotter to use with it, and how to let it go. */
export interface Containerd {
  readonly address: string;
  /** overlayfs when containerd loaded it, else native (plain copies, slower but needs no mounts). */
  readonly snapshotter: 'overlayfs' | 'native';
  /** Runs `ctr --address <socket> -n <namespace> ...args`; rejects with ctr's own output. */
  ctr(args: readonly string[], timeoutMs?: number): Promise<string>;
  /** Stops a containerd started here and removes its dirs; leaves an existing one alone. */
  stop(): Promise<void>;
}

/** The containerd namespace the test's images and containers live in (never "default"). */
export const testNamespace = 'capstan-image-test';

function run(cmd: string, args: readonly string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { timeout: timeoutMs, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${cmd} ${args.join(' ')}: ${(stderr || stdout || err.message).trim()}`));
      else resolve(stdout);
    });
  });
}

async function answers(address: string): Promise<boolean> {
  if (!existsSync(address)) return false;
  return await run('ctr', ['--address', address, 'version'], 5000).then(
    () => true,
    () => false,
  );
}

async function chooseSnapshotter(address: string): Promise<'overlayfs' | 'native'> {
  const plugins = await run('ctr', ['--address', address, 'plugins', 'ls'], 10_000);
  const overlay = plugins.split('\n').find((l) => /\bio\.containerd\.snapshotter\.v1\s+overlayfs\b/.test(l));
  return overlay && /\bok\s*$/.test(overlay) ? 'overlayfs' : 'native';
}

function handle(address: string, snapshotter: 'overlayfs' | 'native', stop: () => Promise<void>): Containerd {
  return {
    address,
    snapshotter,
    ctr: (args, timeoutMs = 120_000) => run('ctr', ['--address', address, '-n', testNamespace, ...args], timeoutMs),
    stop,
  };
}

/** Uses the containerd at $CONTAINERD_ADDRESS, or starts a private one; resolves once ctr reaches it. */
export async function useContainerd(): Promise<Containerd> {
  const existing = process.env.CONTAINERD_ADDRESS;
  if (existing && (await answers(existing))) return handle(existing, await chooseSnapshotter(existing), async () => undefined);

  const dir = await mkdtemp(join(tmpdir(), 'capstan-containerd-'));
  const address = join(dir, 'containerd.sock');
  const config = join(dir, 'config.toml');
  const logFile = join(dir, 'containerd.log');
  await writeFile(
    config,
    [
      'version = 2',
      `root = ${JSON.stringify(join(dir, 'root'))}`,
      `state = ${JSON.stringify(join(dir, 'state'))}`,
      'disabled_plugins = ["io.containerd.grpc.v1.cri"]',
      '[grpc]',
      `  address = ${JSON.stringify(address)}`,
      '',
    ].join('\n'),
  );
  const logFd = openSync(logFile, 'a');
  let child: ChildProcess;
  try {
    child = spawn('containerd', ['--config', config], { stdio: ['ignore', logFd, logFd] });
  } finally {
    closeSync(logFd);
  }
  const spawnError = new Promise<string>((resolve) => child.once('error', (err) => resolve(err.message)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    await rm(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  while (!(await answers(address))) {
    const failed = await Promise.race([spawnError, new Promise<undefined>((r) => setTimeout(() => r(undefined), 200))]);
    if (failed !== undefined || child.exitCode !== null || Date.now() > deadline) {
      const log = await readFile(logFile, 'utf8').catch(() => '');
      await stop();
      const why = failed ?? (child.exitCode !== null ? `exited with code ${child.exitCode}` : 'its socket did not answer within 30 s');
      throw new Error(`containerd could not be started (${why}); its log ends:\n${log.split('\n').slice(-15).join('\n')}`);
    }
  }
  return handle(address, await chooseSnapshotter(address), stop);
}

/**
 * Test support: runs the real kubectl binaries (the one on PATH and the versioned ones the
 * kubectl package ships beside it) against a test server.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';

/** The result of one kubectl run. */
export interface KubectlResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

const versionedDirs = ['/usr/lib/google-cloud-sdk/bin', '/usr/bin', '/usr/local/bin'];

/** The path of kubectl.<version> (e.g. "1.27"), or "kubectl" from PATH for undefined. Throws when missing. */
export function kubectlBinary(version?: string): string {
  if (!version) return 'kubectl';
  for (const dir of versionedDirs) {
    const p = `${dir}/kubectl.${version}`;
    if (existsSync(p)) return p;
  }
  throw new Error(`kubectl.${version} not found in ${versionedDirs.join(', ')} (dpkg -L kubectl lists them)`);
}

/** Runs kubectl with args against kubeconfig; never throws for a non-zero exit. */
export function kubectl(kubeconfigPath: string, args: readonly string[], opts: { version?: string; input?: string; env?: Record<string, string>; timeoutMs?: number } = {}): Promise<KubectlResult> {
  const bin = kubectlBinary(opts.version);
  return new Promise((resolve, reject) => {
    const child = execFile(
      bin,
      ['--kubeconfig', kubeconfigPath, ...args],
      { timeout: opts.timeoutMs ?? 60_000, env: { ...process.env, HOME: process.env.HOME ?? '/tmp', ...opts.env }, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err && typeof (err as { code?: unknown }).code !== 'number') {
          reject(err);
          return;
        }
        resolve({ code: err ? Number((err as { code?: number }).code) : 0, stdout, stderr });
      },
    );
    if (opts.input !== undefined) {
      child.stdin?.end(opts.input);
    }
  });
}

/** Starts a long-running kubectl (e.g. get -w) and collects its output until stopped. */
export function kubectlStream(kubeconfigPath: string, args: readonly string[], version?: string): { child: ChildProcess; output: () => string; stop: () => Promise<void> } {
  const child = spawn(kubectlBinary(version), ['--kubeconfig', kubeconfigPath, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  return {
    child,
    output: () => out,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Waits until predicate(output) holds or the timeout passes; returns whether it held. */
export async function waitFor(predicate: () => boolean, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (predicate()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return predicate();
}

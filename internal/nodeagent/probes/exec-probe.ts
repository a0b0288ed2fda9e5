/**
 * The exec prober (kubelet's execProber over CRI ExecSync): the command (with $(VAR) references
 * to the container's literal env expanded, as kubelet's ExpandContainerCommandOnlyStatic) runs in
 * the container with the probe's timeout; exit code 0 succeeds, another fails with the output
 * (stdout then stderr, at most 10 KiB); a timeout fails with 'command "..." timed out'; a runtime
 * error leaves the result unknown (kubelet throws that attempt away).
 */
import { isGrpcCode, type CriClient } from '../runtime/cri-client.js';
import { maxProbeOutputBytes, type ProbeOutcome } from './interface.js';

/** Expands $(NAME) from env's literal values; $$ escapes; unknown references stay as written. */
export function expandCommand(cmd: readonly string[], env: readonly { name?: string; value?: string; valueFrom?: unknown }[]): string[] {
  const vars = new Map<string, string>();
  for (const e of env) if (e.name && e.valueFrom === undefined) vars.set(e.name, e.value ?? '');
  return cmd.map((arg) => {
    let out = '';
    for (let i = 0; i < arg.length; i++) {
      if (arg[i] === '$' && arg[i + 1] === '$') {
        out += '$';
        i++;
      } else if (arg[i] === '$' && arg[i + 1] === '(') {
        const close = arg.indexOf(')', i + 2);
        const name = close < 0 ? undefined : arg.slice(i + 2, close);
        if (name !== undefined && vars.has(name)) {
          out += vars.get(name);
          i = close;
        } else out += arg[i];
      } else out += arg[i];
    }
    return out;
  });
}

function toBuffer(v: unknown): Buffer {
  if (Buffer.isBuffer(v)) return v;
  if (v instanceof Uint8Array) return Buffer.from(v);
  if (typeof v === 'string') return Buffer.from(v, 'base64');
  return Buffer.alloc(0);
}

/** Runs one exec probe of cmd in containerId through the runtime. */
export async function execProbe(cri: CriClient, containerId: string, cmd: readonly string[], timeoutSeconds: number): Promise<ProbeOutcome> {
  try {
    const res = await cri.runtime.ExecSync({ container_id: containerId, cmd: [...cmd], timeout: timeoutSeconds });
    const output = Buffer.concat([toBuffer(res.stdout), toBuffer(res.stderr)]).subarray(0, maxProbeOutputBytes).toString('utf8');
    return { result: Number(res.exit_code ?? 0) === 0 ? 'success' : 'failure', output };
  } catch (err) {
    if (isGrpcCode(err, 'DEADLINE_EXCEEDED')) return { result: 'failure', output: `command "${cmd.join(' ')}" timed out` };
    return { result: 'unknown', output: '', error: err as Error };
  }
}

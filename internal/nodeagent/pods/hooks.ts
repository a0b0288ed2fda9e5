/**
 * Lifecycle hooks (kubelet's handlerRunner): exec through CRI ExecSync, httpGet against the pod
 * IP (or the handler's host) with its scheme, path and headers, and sleep; each bounded by the
 * time the caller allows. Resolves with an error message or undefined on success.
 */
import http from 'node:http';
import https from 'node:https';
import type { CriClient } from '../runtime/cri-client.js';
import { grpcErrorText } from '../runtime/grpc-error.js';
import type { Container, Handler } from './types.js';

function resolvePort(port: number | string, c: Container): number | undefined {
  if (typeof port === 'number') return port;
  if (/^\d+$/.test(port)) return Number(port);
  return c.ports?.find((p) => p.name === port)?.containerPort;
}

/** Runs handler for container c (CRI id) of a pod at podIP; timeoutMs bounds it. */
export async function runHandler(cri: CriClient, handler: Handler, c: Container, containerId: string, podIP: string | undefined, timeoutMs: number): Promise<string | undefined> {
  if (handler.exec) {
    const cmd = handler.exec.command ?? [];
    try {
      const res = await cri.runtime.ExecSync({ container_id: containerId, cmd, timeout: Math.max(1, Math.ceil(timeoutMs / 1000)) });
      if ((res.exit_code ?? 0) !== 0) {
        const out = Buffer.from(res.stdout ?? []).toString('utf8') + Buffer.from(res.stderr ?? []).toString('utf8');
        return `Exec lifecycle hook (${JSON.stringify(cmd)}) for Container "${c.name}" failed - error: command '${cmd.join(' ')}' exited with ${res.exit_code}: ${out}, message: "${out}"`;
      }
      return undefined;
    } catch (err) {
      return `Exec lifecycle hook (${JSON.stringify(cmd)}) for Container "${c.name}" failed - error: ${grpcErrorText(err)}`;
    }
  }
  if (handler.httpGet) {
    const g = handler.httpGet;
    const port = resolvePort(g.port, c);
    const host = g.host || podIP;
    if (!port || !host) return `HTTP lifecycle hook (${g.path ?? ''}) for Container "${c.name}" failed - error: no host or port`;
    const scheme = (g.scheme ?? 'HTTP').toLowerCase();
    const url = `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}${g.path?.startsWith('/') ? g.path : `/${g.path ?? ''}`}`;
    const headers: Record<string, string> = { 'user-agent': 'kube-lifecycle/1.33' };
    for (const h of g.httpHeaders ?? []) headers[h.name] = h.value;
    return new Promise((resolve) => {
      const mod = scheme === 'https' ? https : http;
      const req = mod.get(url, { headers, timeout: timeoutMs, ...(scheme === 'https' ? { rejectUnauthorized: false } : {}) }, (res) => {
        res.resume();
        const code = res.statusCode ?? 0;
        resolve(code >= 200 && code < 400 ? undefined : `HTTP lifecycle hook (${g.path ?? ''}) for Container "${c.name}" failed - error: HTTP status code ${code}`);
      });
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', (err) => resolve(`HTTP lifecycle hook (${g.path ?? ''}) for Container "${c.name}" failed - error: ${err.message}`));
    });
  }
  if (handler.sleep) {
    await new Promise((r) => setTimeout(r, Math.min(handler.sleep!.seconds * 1000, timeoutMs)));
    return undefined;
  }
  return undefined;
}

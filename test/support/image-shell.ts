/**
 * What the image tests share: running a build tool with its output kept for the failure message,
 * and asking a server in a container for /readyz over HTTPS.
 */
import { spawn } from 'node:child_process';
import { request } from 'node:https';

/** Runs cmd in cwd; resolves with its exit code (128 when killed, -1 when it could not start) and its stdout and stderr together. */
export function runTool(cwd: string, cmd: string, args: readonly string[], timeoutMs: number): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('error', (err) => done({ code: -1, output: output + err.message }));
    child.once('close', (code, signal) => done({ code: code ?? (signal ? 128 : -1), output }));
  });
}

/** GET /readyz of the server on 127.0.0.1:port (its certificate for localhost, signed by ca). */
export function readyz(port: number, ca: string): Promise<{ status: number; body: string }> {
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path: '/readyz', ca, servername: 'localhost', timeout: 2000 }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => done({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', fail);
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.end();
  });
}

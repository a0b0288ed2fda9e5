/**
 * The tcpSocket prober (kubelet's pkg/probe/tcp): a TCP connection to host:port within the
 * timeout succeeds and is closed at once; a failure carries Go's dial error text.
 */
import net from 'node:net';
import type { ProbeOutcome } from './interface.js';

/** host:port as Go's net.JoinHostPort writes it. */
export function joinHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** Runs one TCP probe. */
export function tcpProbe(host: string, port: number, timeoutMs: number): Promise<ProbeOutcome> {
  const addr = joinHostPort(host, port);
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ result: 'failure', output: `dial tcp ${addr}: i/o timeout` });
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ result: 'success', output: '' });
    });
    socket.once('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      const text = err.code === 'ECONNREFUSED' ? 'connect: connection refused' : err.code === 'EHOSTUNREACH' ? 'connect: no route to host' : err.message;
      resolve({ result: 'failure', output: `dial tcp ${addr}: ${text}` });
    });
  });
}

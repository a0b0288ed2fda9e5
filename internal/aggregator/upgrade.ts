/**
 * Upgraded connections (WebSocket, SPDY) through the aggregator, as kube's UpgradeAwareHandler
 * passes them: the request goes to the backend with its Upgrade headers; a 101 answer is written
 * to the caller's socket as it came and the two connections are joined byte for byte until either
 * side closes; any other answer is returned as an ordinary response.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { request, type Agent } from 'node:https';
import type { Duplex } from 'node:stream';
import type { Logger } from '../observability/logging.js';
import { plainError } from './proxy.js';
import { describeRequestError } from './request-errors.js';

/** Joins req's connection to target's after a 101; resolves when the exchange is over. */
export function proxyUpgrade(req: IncomingMessage, res: ServerResponse, target: string, opts: { agent: Agent; headers: OutgoingHttpHeaders; servername: string; timeoutMs?: number }, log: Logger): Promise<void> {
  const client: Duplex = req.socket;
  return new Promise<void>((resolve) => {
    const upstream = request(target, { method: req.method, agent: opts.agent, headers: opts.headers, servername: opts.servername });
    // timeoutMs bounds the wait for the backend's answer (kube's dial timeout of the kubelet client).
    const timer = opts.timeoutMs ? setTimeout(() => upstream.destroy(Object.assign(new Error('i/o timeout'), { code: 'ETIMEDOUT' })), opts.timeoutMs) : undefined;
    const answered = (): void => clearTimeout(timer);
    upstream.on('upgrade', answered);
    upstream.on('response', answered);
    upstream.on('upgrade', (answer, backend, head) => {
      const lines = [`HTTP/1.1 ${answer.statusCode ?? 101} ${answer.statusMessage ?? 'Switching Protocols'}`];
      for (let i = 0; i < answer.rawHeaders.length; i += 2) lines.push(`${answer.rawHeaders[i]}: ${answer.rawHeaders[i + 1]}`);
      // The response object must never write on a connection that now carries another protocol.
      res.detachSocket(client as never);
      client.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length > 0) client.write(head);
      backend.pipe(client);
      client.pipe(backend);
      let closed = false;
      const done = (): void => {
        backend.destroy();
        client.destroy();
        // The response no longer owns the socket, so it would never close: the request's end
        // (the wait group of a graceful shutdown, the request signal) is told here.
        if (!closed) {
          closed = true;
          res.emit('close');
        }
        resolve();
      };
      backend.on('close', done);
      client.on('close', done);
      backend.on('error', done);
      client.on('error', done);
    });
    upstream.on('response', (answer) => {
      const out: OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && name !== 'connection' && name !== 'transfer-encoding') out[name] = value;
      res.writeHead(answer.statusCode ?? 502, out);
      answer.pipe(res);
      answer.on('end', () => resolve());
    });
    upstream.on('error', (err: NodeJS.ErrnoException) => {
      answered();
      const message = describeRequestError(err, target);
      log.error(`Error while proxying request: ${message}`);
      plainError(res, 503, `error dialing backend: ${message}`);
      resolve();
    });
    req.pipe(upstream);
  });
}

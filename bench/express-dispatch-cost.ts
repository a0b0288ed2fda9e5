/**
 * Micro-benchmark of what one Express layer adds to a request (why internal/server/chain.ts is a
 * plain function): the same handler, answering a 1 KiB JSON body, served by node:http directly
 * and through an Express application with one middleware (as the chain used to be), loaded by
 * autocannon in the same process in alternating 2 s rounds. Prints requests/s and the process's
 * CPU per request (server and load generator together: the difference is Express's).
 * Run: node dist/bench/express-dispatch-cost.js
 */
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import express from 'express';

const require = createRequire(import.meta.url);
type Autocannon = (opts: Record<string, unknown>, cb: (err: Error | null, result: { '2xx': number }) => void) => unknown;
const autocannon = require('autocannon') as Autocannon;

const body = JSON.stringify({ kind: 'ConfigMap', apiVersion: 'v1', data: { x: 'y'.repeat(1000) } });
const serve = (_req: IncomingMessage, res: ServerResponse): void => {
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Length', body.length);
  res.end(body);
};
const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.use((req: IncomingMessage, res: ServerResponse) => serve(req, res));

const cpuMicros = (): number => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

async function round(handler: RequestListener): Promise<{ perSecond: number; cpuMicrosPerRequest: number }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const before = cpuMicros();
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/namespaces/default/configmaps/target?resourceVersion=0`;
  const r = await new Promise<{ '2xx': number }>((resolve, reject) => autocannon({ url, connections: 16, duration: 2 }, (err, res) => (err ? reject(err) : resolve(res))));
  const used = cpuMicros() - before;
  server.close();
  return { perSecond: r['2xx'] / 2, cpuMicrosPerRequest: used / r['2xx'] };
}

for (let i = 0; i < 4; i++) {
  const viaExpress = await round(app as unknown as RequestListener);
  const direct = await round(serve);
  console.log(
    `round ${i + 1}: Express ${viaExpress.perSecond.toFixed(0)}/s, ${viaExpress.cpuMicrosPerRequest.toFixed(1)} µs/request; direct ${direct.perSecond.toFixed(0)}/s, ${direct.cpuMicrosPerRequest.toFixed(1)} µs/request`,
  );
}

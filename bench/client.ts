/**
 * The benchmark's HTTPS client: keep-alive requests to the server under test with its CA trusted
 * (servername localhost), whole-body and streamed. Load loops share one Agent per phase so that
 * the number of connections is the number of requests in flight.
 */
import { Agent, request } from 'node:https';
import type { IncomingMessage } from 'node:http';
import { collectionPath, configMap } from './objects.js';

/** A response read whole. */
export interface Reply {
  readonly status: number;
  readonly body: Buffer;
}

/** A keep-alive client for one server. */
export interface Client {
  readonly port: number;
  readonly ca: string;
  readonly agent: Agent;
  /** One request; resolves with the whole body. Never rejects on an HTTP error status. */
  call(method: string, path: string, body?: unknown): Promise<Reply>;
  /** One request whose body is handed to onChunk as it arrives; resolves with the status at the end. */
  stream(method: string, path: string, onChunk: (chunk: Buffer) => void, onResponse?: (res: IncomingMessage) => void): Promise<number>;
  /** Closes every pooled connection. */
  close(): void;
}

/** A client with at most maxSockets connections (Infinity for one per request), presenting clientCert when given. */
export function newClient(port: number, ca: string, maxSockets = 64, clientCert?: { cert: string; key: string }): Client {
  const agent = new Agent({
    keepAlive: true,
    maxSockets,
    maxFreeSockets: Number.isFinite(maxSockets) ? maxSockets : 1024,
    ca,
    servername: 'localhost',
    ...(clientCert ? { cert: clientCert.cert, key: clientCert.key } : {}),
  });
  const open = (method: string, path: string, body: unknown, onResponse: (res: IncomingMessage) => void, onError: (e: Error) => void): void => {
    const payload = body === undefined ? undefined : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
    const headers: Record<string, string> = { accept: 'application/json' };
    if (payload) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(payload.length);
    }
    const req = request({ host: '127.0.0.1', port, path, method, headers, agent }, onResponse);
    req.on('error', onError);
    req.end(payload);
  };
  return {
    port,
    ca,
    agent,
    call: (method, path, body) =>
      new Promise((resolve, reject) => {
        open(
          method,
          path,
          body,
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
            res.on('error', reject);
          },
          reject,
        );
      }),
    stream: (method, path, onChunk, onResponse) =>
      new Promise((resolve, reject) => {
        open(
          method,
          path,
          undefined,
          (res) => {
            onResponse?.(res);
            res.on('data', onChunk);
            res.on('end', () => resolve(res.statusCode ?? 0));
            res.on('error', reject);
            res.on('aborted', () => resolve(res.statusCode ?? 0));
          },
          reject,
        );
      }),
    close: () => agent.destroy(),
  };
}

/**
 * The server under test failed a request (an HTTP error where success was due): a benchmark that
 * meets one reports FAILED or MISSED, never a harness error.
 */
export class ServerFailure extends Error {}

/** A ServerFailure for a reply, carrying the start of its body (the metav1.Status). */
export function serverFailure(method: string, path: string, status: number, body: Buffer | string): ServerFailure {
  return new ServerFailure(`${method} ${path}: HTTP ${status}: ${body.toString().slice(0, 300)}`);
}

/** Calls and throws ServerFailure unless the status is 2xx; returns the parsed JSON body. */
export async function callOk<T = any>(client: Client, method: string, path: string, body?: unknown): Promise<T> {
  const r = await client.call(method, path, body);
  if (r.status < 200 || r.status > 299) throw serverFailure(method, path, r.status, r.body);
  return JSON.parse(r.body.toString('utf8')) as T;
}

/** Creates a namespace, treating AlreadyExists as success. */
export async function ensureNamespace(client: Client, name: string): Promise<void> {
  const r = await client.call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  if (r.status !== 201 && r.status !== 409) throw serverFailure('POST', `/api/v1/namespaces (${name})`, r.status, r.body);
}

/**
 * Makes sure the A/B benchmarks' target exists: namespace/target, a config map of 1 KiB. Servers
 * that share one etcd see the first one's; each is asked, so that every server's cache has it.
 */
export async function ensureTargetConfigMap(servers: ReadonlyArray<{ readonly port: number; readonly ca: string }>, namespace: string): Promise<string> {
  const collection = collectionPath(namespace, 'configmaps');
  const target = `${collection}/target`;
  for (const s of servers) {
    const client = newClient(s.port, s.ca, 1);
    try {
      await ensureNamespace(client, namespace);
      if ((await client.call('GET', target)).status === 404) {
        await callOk(client, 'POST', collection, configMap({ name: 'target' }, 1024));
      }
    } finally {
      client.close();
    }
  }
  return target;
}

/**
 * The linearizability campaign's HTTP client: one request to one API server with a deadline, its
 * answer or the reason there was none, sorted into the outcomes the history records.
 */
import { Agent, request as httpsRequest } from 'node:https';
import type { ApiServer } from './history-cluster.js';
import type { ObjectState, Outcome } from './history-types.js';

/** An answer, or status 0 with the network error when there was none. */
export interface Answer {
  readonly status: number;
  readonly body: any;
  readonly text: string;
  /** The network error (ECONNREFUSED, ECONNRESET, timeout) when status is 0. */
  readonly error?: string;
}

// One keep-alive agent per server: TLS handshakes would otherwise cost most of the campaign's CPU
// (the servers run in this process). A socket the server closes while it restarts fails the next
// request on it, which the history then records as unknown.
const agents = new Map<string, Agent>();
const agentFor = (server: ApiServer): Agent => {
  let agent = agents.get(server.name);
  if (!agent) {
    agent = new Agent({ keepAlive: true, maxSockets: 16 });
    agents.set(server.name, agent);
  }
  return agent;
};

/** Closes the keep-alive sockets of every server (when the campaign ends). */
export function closeAgents(): void {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}

/** Sends one request (JSON body, or a merge patch when contentType says so) and never rejects. */
export function call(server: ApiServer, method: string, path: string, body?: unknown, contentType = 'application/json', timeoutMs = 10_000): Promise<Answer> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  const headers: Record<string, string> = { accept: 'application/json' };
  if (payload) {
    headers['content-type'] = contentType;
    headers['content-length'] = String(payload.length);
  }
  return new Promise((resolve) => {
    let settled = false;
    const done = (a: Answer): void => {
      if (!settled) {
        settled = true;
        resolve(a);
      }
    };
    const req = httpsRequest({ host: '127.0.0.1', port: server.port, path, method, headers, ca: server.ca, servername: 'localhost', agent: agentFor(server) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        done({ status: res.statusCode ?? 0, body: parsed, text });
      });
      res.on('error', (err) => done({ status: 0, body: undefined, text: '', error: (err as NodeJS.ErrnoException).code ?? err.message }));
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error('timeout')));
    req.on('error', (err) => done({ status: 0, body: undefined, text: '', error: (err as NodeJS.ErrnoException).code ?? err.message }));
    if (payload) req.write(payload);
    req.end();
  });
}

/** What an answer means for a write: acknowledged, rejected (409, 412, 404), refused (never connected) or unknown. */
export function outcomeOf(a: Answer): Outcome {
  if (a.status >= 200 && a.status < 300) return 'ok';
  if (a.status === 409 || a.status === 412 || a.status === 404) return 'rejected';
  if (a.status === 0 && a.error === 'ECONNREFUSED') return 'refused';
  return 'unknown';
}

/** A ConfigMap as the history keeps it. */
export function objectState(o: { metadata?: { uid?: string; resourceVersion?: string }; data?: Record<string, string> }): ObjectState {
  return { uid: o.metadata?.uid ?? '', rv: o.metadata?.resourceVersion ?? '', data: o.data ?? {} };
}

/** An answer in one line for a failure message: status and body head, or the network error. */
export function answerHead(a: Answer): string {
  return a.status === 0 ? `no answer (${a.error})` : `${a.status} ${a.text.slice(0, 200)}`;
}

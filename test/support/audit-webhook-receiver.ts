/**
 * Test support: a real audit webhook receiver on loopback HTTPS (its own CA from pki.ts), as a log
 * collector behind --audit-webhook-config-file would be. It records every EventList it accepts,
 * can be told to fail calls, and writes the kubeconfig that points the API server at it.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createCertificateAuthority, issueCertificate } from '../../internal/server/pki.js';
import { writeWebhookKubeconfig } from './webhook-kubeconfig.js';

/** One call as the receiver saw it. */
export interface ReceivedCall {
  readonly method: string;
  readonly path: string;
  readonly contentType: string | undefined;
  readonly authorization: string | undefined;
  /** The status it was answered with. */
  readonly status: number;
  readonly body: any;
}

/** The running receiver. */
export interface AuditWebhookReceiver {
  readonly url: string;
  readonly caPem: string;
  /** The bearer token the receiver requires (written into the kubeconfig). */
  readonly token: string;
  /** Every call, failed ones included, in order of arrival. */
  readonly calls: ReceivedCall[];
  /** The EventLists answered 200, in order. */
  readonly lists: any[];
  /** The items of every accepted EventList, in order. */
  readonly events: any[];
  /** Answers the next n calls with status (500 unless told) instead of accepting them. */
  failNext(n: number, status?: number): void;
  /** While set, every call is answered with this status. */
  failAlways: number | undefined;
  /** Milliseconds to wait before answering each call. */
  delayMs: number;
  /** Resolves once check(events) holds; rejects after timeoutMs with what was received. */
  waitFor(check: (events: any[]) => boolean, timeoutMs?: number): Promise<void>;
  /** Writes a kubeconfig for the receiver into dir (CA by relative file) and returns its path. */
  writeKubeconfig(dir: string, name?: string): Promise<string>;
  stop(): Promise<void>;
}

/** Starts a receiver on a kernel-chosen loopback port. */
export async function startAuditWebhookReceiver(): Promise<AuditWebhookReceiver> {
  const ca = await createCertificateAuthority('test-audit-webhook-ca');
  const serving = await issueCertificate(ca, { commonName: '127.0.0.1', usage: 'server', ips: ['127.0.0.1'] });
  const token = 'apiserver-to-audit-sink';
  let failing = 0;
  let failingStatus = 500;
  const waiters = new Set<() => void>();
  // Tests change failAlways/delayMs on the returned object; the handler reads them there.
  let receiver: AuditWebhookReceiver | undefined;
  const server: Server = createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: any;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = undefined;
      }
      let status = 200;
      if (req.headers.authorization !== `Bearer ${token}`) status = 401;
      else if (!body || body.kind !== 'EventList') status = 400;
      else if (receiver?.failAlways !== undefined) status = receiver.failAlways;
      else if (failing > 0) {
        failing--;
        status = failingStatus;
      }
      const call: ReceivedCall = { method: req.method ?? '', path: req.url ?? '', contentType: req.headers['content-type'], authorization: req.headers.authorization, status, body };
      const answer = (): void => {
        receiver?.calls.push(call);
        if (status === 200) {
          receiver?.lists.push(body);
          receiver?.events.push(...(body.items as unknown[]));
        }
        for (const w of [...waiters]) w();
        res.writeHead(status, { 'content-type': 'application/json' }).end(status === 200 ? '{}' : JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message: `the audit sink answers ${status}`, code: status }));
      };
      if (receiver && receiver.delayMs > 0) setTimeout(answer, receiver.delayMs);
      else answer();
    });
  });
  // The kernel picks the port, so parallel test processes never race for one.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/audit`;
  let stopped = false;
  receiver = {
    url,
    caPem: ca.certPem,
    token,
    calls: [],
    lists: [],
    events: [],
    failAlways: undefined,
    delayMs: 0,
    failNext(n, status = 500) {
      failing = n;
      failingStatus = status;
    },
    waitFor(check, timeoutMs = 10_000) {
      return new Promise<void>((resolve, reject) => {
        const waiter = (): void => {
          if (!check(receiver!.events)) return;
          waiters.delete(waiter);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`the audit webhook receiver did not get the expected events within ${timeoutMs}ms; it got ${receiver!.calls.length} calls and ${receiver!.events.length} events: ${JSON.stringify(receiver!.events.map((e) => [e.verb, e.requestURI, e.stage]))}`));
        }, timeoutMs);
        waiters.add(waiter);
        waiter();
      });
    },
    writeKubeconfig: (dir, name = 'audit-webhook.kubeconfig') =>
      writeWebhookKubeconfig(dir, { fileName: name, caFileName: 'audit-webhook-ca.crt', caPem: ca.certPem, server: url, cluster: 'audit-sink', token }),
    async stop() {
      if (stopped) return;
      stopped = true;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return receiver;
}

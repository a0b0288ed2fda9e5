/**
 * Test support: a real admission webhook server on loopback HTTPS, with its own CA (the caBundle
 * of a webhook configuration) and a serving certificate for 127.0.0.1 and
 * "<service>.<namespace>.svc" names. Each path answers with its handler; every review is recorded
 * with the path, the client certificate's CN and the Authorization header it came with.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { createCertificateAuthority, issueCertificate, type CertificateAuthority } from '../../internal/server/pki.js';

/**
 * What a handler answers: an AdmissionResponse (uid is filled in), 'hang' to never answer, or
 * { $raw: body } to answer body as it is (another review type).
 */
export type HookAnswer = Record<string, unknown> | 'hang';

/** What a test review server (admission or conversion webhook) offers once it listens. */
export interface ListeningReviewServer<R extends { readonly path: string; readonly review: any }> {
  readonly port: number;
  readonly ca: CertificateAuthority;
  /** base64 of the CA's PEM, for a clientConfig's caBundle. */
  readonly caBundle: string;
  /** https://127.0.0.1:<port><path>. */
  url(path: string): string;
  readonly received: R[];
  /** The reviews one path received. */
  reviews(path: string): R['review'][];
  stop(): Promise<void>;
}

/** Starts server on a loopback port; stop() ends the answers left hanging and closes it. */
export async function listenForReviews<R extends { readonly path: string; readonly review: any }>(
  server: Server,
  ca: CertificateAuthority,
  received: R[],
  hanging: ReadonlySet<import('node:http').ServerResponse>,
): Promise<ListeningReviewServer<R>> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    ca,
    caBundle: Buffer.from(ca.certPem).toString('base64'),
    url: (path) => `https://127.0.0.1:${port}${path}`,
    received,
    reviews: (path) => received.filter((r) => r.path === path).map((r) => r.review),
    stop: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** One received review. */
export interface ReceivedReview {
  readonly path: string;
  readonly review: Record<string, any>;
  readonly clientCN?: string;
  readonly authorization?: string;
}

/** The running webhook server. */
export interface TestAdmissionWebhook {
  readonly port: number;
  readonly ca: CertificateAuthority;
  /** base64 of the CA's PEM, for clientConfig.caBundle. */
  readonly caBundle: string;
  /** https://127.0.0.1:<port><path>. */
  url(path: string): string;
  /** Handlers by path. */
  readonly handlers: Map<string, (review: Record<string, any>) => HookAnswer>;
  readonly received: ReceivedReview[];
  /** The reviews one path received. */
  reviews(path: string): Array<Record<string, any>>;
  stop(): Promise<void>;
}

/** A JSON patch as an AdmissionResponse carries it. */
export function jsonPatch(ops: unknown[]): Record<string, unknown> {
  return { allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(ops)).toString('base64') };
}

/** Starts the server; dnsNames are extra names its certificate is valid for. */
export async function startAdmissionWebhook(dnsNames: readonly string[] = []): Promise<TestAdmissionWebhook> {
  const ca = await createCertificateAuthority('test-admission-webhook-ca');
  const serving = await issueCertificate(ca, { commonName: '127.0.0.1', usage: 'server', ips: ['127.0.0.1'], dns: dnsNames });
  const handlers = new Map<string, (review: Record<string, any>) => HookAnswer>();
  const received: ReceivedReview[] = [];
  const hanging = new Set<import('node:http').ServerResponse>();
  const server: Server = createServer({ cert: serving.cert, key: serving.key, ca: ca.certPem, requestCert: true, rejectUnauthorized: false }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0] ?? '';
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, any>;
      const peer = (req.socket as TLSSocket).getPeerCertificate?.();
      received.push({ path, review, ...(peer?.subject?.CN ? { clientCN: String(peer.subject.CN) } : {}), ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}) });
      const handler = handlers.get(path);
      if (!handler) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('no handler');
      const answer = handler(review);
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      if ('$raw' in answer) return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer.$raw));
      const response = { uid: review.request?.uid, ...answer };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response }));
    });
  });
  return { ...(await listenForReviews(server, ca, received, hanging)), handlers };
}

/**
 * Test support: a real token webhook on loopback HTTPS (its own CA from pki.ts) that answers
 * TokenReviews from a table of tokens, records every review it is sent, and writes the kubeconfig
 * kube-apiserver's --authentication-token-webhook-config-file reads.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createCertificateAuthority, issueCertificate } from '../../internal/server/pki.js';
import { writeWebhookKubeconfig } from './webhook-kubeconfig.js';

/** A user the webhook knows by token. */
export interface WebhookUser {
  readonly username: string;
  readonly uid?: string;
  readonly groups?: readonly string[];
  readonly extra?: Record<string, readonly string[]>;
  /** status.audiences to answer with. */
  readonly audiences?: readonly string[];
}

/** The running webhook. */
export interface TestTokenWebhook {
  readonly url: string;
  readonly caPem: string;
  /** Known tokens; an unknown token is answered authenticated: false. */
  readonly users: Map<string, WebhookUser>;
  /** Every review body received, in order. */
  readonly reviews: Array<Record<string, unknown>>;
  /** When set, answers every call with this status code and body instead. */
  failWith?: { status: number; body: string };
  /** When set, an unknown token's answer carries this status.error. */
  unknownError?: string;
  /** The bearer token the webhook requires of the API server (from the kubeconfig). */
  readonly serverToken: string;
  /** Writes a kubeconfig for the webhook into dir (CA by relative file) and returns its path. */
  writeKubeconfig(dir: string): Promise<string>;
  stop(): Promise<void>;
}

/** Starts a webhook speaking TokenReview apiVersion (it answers in the version it is sent). */
export async function startTestTokenWebhook(): Promise<TestTokenWebhook> {
  const ca = await createCertificateAuthority('test-token-webhook-ca');
  const serving = await issueCertificate(ca, { commonName: '127.0.0.1', usage: 'server', ips: ['127.0.0.1'] });
  const serverToken = 'apiserver-to-webhook-secret';
  const users = new Map<string, WebhookUser>();
  const reviews: Array<Record<string, unknown>> = [];
  // The state tests change (failWith, unknownError) lives on the returned object; the handler reads it there.
  let hook: TestTokenWebhook | undefined;
  const server: Server = createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.headers.authorization !== `Bearer ${serverToken}`) return void res.writeHead(401).end('who are you?');
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, any>;
      reviews.push(review);
      if (hook?.failWith) return void res.writeHead(hook.failWith.status, { 'content-type': 'text/plain' }).end(hook.failWith.body);
      const user = users.get(String(review.spec?.token));
      const status = user
        ? {
            authenticated: true,
            user: { username: user.username, ...(user.uid ? { uid: user.uid } : {}), groups: user.groups ?? [], ...(user.extra ? { extra: user.extra } : {}) },
            ...(user.audiences ? { audiences: user.audiences } : {}),
          }
        : { authenticated: false, ...(hook?.unknownError ? { error: hook.unknownError } : {}) };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'TokenReview', status }));
    });
  });
  // The kernel picks the port, so parallel test processes never race for one.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/authenticate`;
  let stopped = false;
  hook = {
    url,
    caPem: ca.certPem,
    users,
    reviews,
    serverToken,
    writeKubeconfig: (dir) =>
      writeWebhookKubeconfig(dir, { fileName: 'token-webhook.kubeconfig', caFileName: 'webhook-ca.crt', caPem: ca.certPem, server: url, cluster: 'token-webhook', token: serverToken }),
    async stop() {
      if (stopped) return;
      stopped = true;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return hook;
}

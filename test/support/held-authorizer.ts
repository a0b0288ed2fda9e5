/**
 * Test support: an HTTPS authorization webhook (--authorization-mode=Webhook) that allows every
 * SubjectAccessReview, but holds the answer to those about one chosen namespace until the test
 * releases them. Authorization runs after the flow control filter, so a request waiting here
 * keeps its seat: this is how tests make requests slow on purpose without making them
 * long-running, with nothing in the server changed for the test.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createCertificateAuthority, issueCertificate } from '../../internal/server/pki.js';
import { writeWebhookKubeconfig } from './webhook-kubeconfig.js';

/** The running webhook. */
export interface HeldAuthorizer {
  /** Reviews about this namespace are held (empty: none). Changing it does not release held ones. */
  holdNamespace: string;
  /** How many reviews are held now. */
  held(): number;
  /** Answers every held review (allowed) and stops holding until holdNamespace is set again. */
  release(): void;
  /** The authorization flags for the server (writes the webhook's kubeconfig into dir). */
  flags(dir: string): Promise<string[]>;
  close(): Promise<void>;
}

/** Starts the webhook on a free loopback port. */
export async function startHeldAuthorizer(): Promise<HeldAuthorizer> {
  const ca = await createCertificateAuthority('held-authz-ca');
  const serving = await issueCertificate(ca, { commonName: 'held-authz', usage: 'server', ips: ['127.0.0.1'] });
  let waiting: Array<() => void> = [];
  const state = { holdNamespace: '' };
  const server: Server = createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { spec: { resourceAttributes?: { namespace?: string } } };
      const answer = (): void => {
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', status: { allowed: true } }));
      };
      if (state.holdNamespace !== '' && review.spec.resourceAttributes?.namespace === state.holdNamespace) waiting.push(answer);
      else answer();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const authorizer: HeldAuthorizer = {
    get holdNamespace() {
      return state.holdNamespace;
    },
    set holdNamespace(ns: string) {
      state.holdNamespace = ns;
    },
    held: () => waiting.length,
    release() {
      state.holdNamespace = '';
      const answers = waiting;
      waiting = [];
      for (const a of answers) a();
    },
    async flags(dir) {
      const file = await writeWebhookKubeconfig(dir, {
        fileName: 'held-authz.kubeconfig',
        caFileName: 'held-authz-ca.crt',
        caPem: ca.certPem,
        server: `https://127.0.0.1:${(server.address() as AddressInfo).port}/authorize`,
        cluster: 'held-authz',
      });
      // Nothing cached: every request asks, so every request about the held namespace waits.
      return ['--authorization-mode=Webhook', `--authorization-webhook-config-file=${file}`, '--authorization-webhook-version=v1', '--authorization-webhook-cache-authorized-ttl=0s'];
    },
    async close() {
      authorizer.release();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
  return authorizer;
}

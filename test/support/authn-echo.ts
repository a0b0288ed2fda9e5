/**
 * Test support: a bare HTTPS server on a free loopback port that asks for client certificates
 * (never rejecting one, as the API server does) and answers every request with what an
 * authenticator made of it, as JSON: { user } or { error } (or {} for no opinion), plus the
 * request headers left after authentication. Lets authenticators be tested over real TLS.
 */
import { createServer, type Server } from 'node:https';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateSelfSigned, servingNames } from '../../internal/server/certs.js';

/** What the echo server answers. */
export interface EchoAnswer {
  user?: { name: string; uid?: string; groups: string[]; extra?: Record<string, string[]> };
  error?: string;
  headers: Record<string, unknown>;
}

/** A running echo server. */
export interface EchoServer {
  readonly port: number;
  /** The CA of its serving certificate (for clients). */
  readonly ca: string;
  /** Replaces the CAs it asks clients with. */
  setClientCAs(cas: readonly string[]): void;
  close(): Promise<void>;
}

/** Starts an echo server asking with clientCAs; authenticate is called for each request. */
export async function startEchoServer(clientCAs: readonly string[], authenticate: (req: IncomingMessage) => unknown): Promise<EchoServer> {
  const serving = await generateSelfSigned(servingNames('127.0.0.1'));
  const server: Server = createServer({ cert: serving.cert, key: serving.key, requestCert: true, rejectUnauthorized: false, ca: [...clientCAs] }, (req, res) => {
    void (async () => {
      const answer: EchoAnswer = { headers: {} };
      try {
        const r = (await authenticate(req)) as { user?: EchoAnswer['user'] } | undefined;
        if (r?.user) answer.user = r.user;
      } catch (err) {
        answer.error = (err as Error).message;
      }
      answer.headers = { ...req.headers };
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(answer));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    ca: serving.ca,
    setClientCAs: (cas) => server.setSecureContext({ cert: serving.cert, key: serving.key, ca: [...cas] }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Test support: a real CRD conversion webhook on loopback HTTPS with its own CA (the caBundle of
 * spec.conversion.webhook.clientConfig) and a serving certificate for 127.0.0.1 and extra names
 * ("<service>.<namespace>.svc"). It converts a test CRD between v1 (`spec.host` + `spec.port`)
 * and v2 (`spec.address` "host:port"), answering in the review's own version. A test can replace
 * the answer of a path (tamper) to play a misbehaving webhook; every review is recorded.
 */
import type { ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import { createCertificateAuthority, issueCertificate, type CertificateAuthority } from '../../internal/server/pki.js';
import { listenForReviews } from './admission-webhook.js';

type Json = Record<string, any>;

/** One received review. */
export interface ReceivedConversion {
  readonly path: string;
  readonly review: Json;
}

/**
 * Replaces the answer of a path: given the review and the correct answer (a whole
 * ConversionReview), returns the body to send, or 'hang' to never answer.
 */
export type Tamper = (review: Json, correct: Json) => unknown;

/** The running webhook. */
export interface TestConversionWebhook {
  readonly port: number;
  readonly ca: CertificateAuthority;
  /** base64 of the CA's PEM, for clientConfig.caBundle. */
  readonly caBundle: string;
  /** https://127.0.0.1:<port><path>. */
  url(path: string): string;
  /** Answers replaced by path. */
  readonly tampers: Map<string, Tamper>;
  readonly received: ReceivedConversion[];
  /** The reviews one path received. */
  reviews(path: string): Json[];
  stop(): Promise<void>;
}

/** Converts one object of the test CRD to desiredAPIVersion (v1: host + port; v2: address). */
export function convertHostPort(obj: Json, desiredAPIVersion: string): Json {
  const out: Json = structuredClone(obj);
  const to = desiredAPIVersion.slice(desiredAPIVersion.lastIndexOf('/') + 1);
  const spec: Json = { ...(out.spec ?? {}) };
  if (to === 'v2' && ('host' in spec || 'port' in spec)) {
    spec.address = `${spec.host ?? ''}:${spec.port ?? ''}`;
    delete spec.host;
    delete spec.port;
  } else if (to === 'v1' && typeof spec.address === 'string') {
    const colon = spec.address.lastIndexOf(':');
    spec.host = colon < 0 ? spec.address : spec.address.slice(0, colon);
    if (colon >= 0 && spec.address.slice(colon + 1) !== '') spec.port = Number(spec.address.slice(colon + 1));
    delete spec.address;
  }
  out.spec = spec;
  out.apiVersion = desiredAPIVersion;
  return out;
}

/** The correct answer to review. */
export function correctAnswer(review: Json): Json {
  const request = review.request ?? {};
  return {
    apiVersion: review.apiVersion,
    kind: 'ConversionReview',
    response: {
      uid: request.uid,
      convertedObjects: (request.objects ?? []).map((o: Json) => convertHostPort(o, request.desiredAPIVersion)),
      result: { status: 'Success' },
    },
  };
}

/** Starts the webhook; dnsNames are extra names its certificate is valid for. */
export async function startConversionWebhook(dnsNames: readonly string[] = []): Promise<TestConversionWebhook> {
  const ca = await createCertificateAuthority('test-conversion-webhook-ca');
  const serving = await issueCertificate(ca, { commonName: '127.0.0.1', usage: 'server', ips: ['127.0.0.1'], dns: dnsNames });
  const tampers = new Map<string, Tamper>();
  const received: ReceivedConversion[] = [];
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0] ?? '';
      let review: Json;
      try {
        review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json;
      } catch {
        return void res.writeHead(400, { 'content-type': 'text/plain' }).end('not JSON');
      }
      received.push({ path, review });
      const correct = correctAnswer(review);
      const tamper = tampers.get(path);
      const answer = tamper ? tamper(review, correct) : correct;
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  return { ...(await listenForReviews(server, ca, received, hanging)), tampers };
}

/**
 * GETs a JSON document from the OIDC issuer (its discovery document, its key set) the way kube's
 * OIDC client does: the --oidc-ca-file roots (else the host's), a 30 s limit for the whole call,
 * and a 200 answer or an error carrying the status and the body.
 */
import { get as httpGet } from 'node:http';
import { get as httpsGet } from 'node:https';

/** kube's OIDC client timeout. */
export const issuerTimeoutMs = 30_000;

const maxBytes = 4 * 1024 * 1024;

/** Where and how to fetch. */
export interface IssuerFetchOptions {
  /** PEM roots for https URLs; absent: the host's roots. */
  readonly ca?: string;
  readonly timeoutMs?: number;
}

/** An answer other than 200, with what the issuer said. */
export class IssuerStatusError extends Error {
  constructor(
    readonly status: number,
    statusText: string,
    body: string,
  ) {
    super(`${status} ${statusText}: ${body.slice(0, 512)}`);
    this.name = 'IssuerStatusError';
  }
}

/** GETs url and parses its JSON body; rejects on a transport error, a timeout, a non-200 answer or bad JSON. */
export function fetchJSON(url: string, options: IssuerFetchOptions = {}): Promise<unknown> {
  const timeoutMs = options.timeoutMs ?? issuerTimeoutMs;
  const u = new URL(url);
  const get = u.protocol === 'https:' ? httpsGet : httpGet;
  return new Promise((resolve, reject) => {
    const req = get(u, { headers: { Accept: 'application/json' }, ...(u.protocol === 'https:' && options.ca ? { ca: options.ca } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > maxBytes) req.destroy(new Error(`${url}: answer larger than ${maxBytes} bytes`));
        else chunks.push(c);
      });
      res.on('error', fail);
      res.on('end', () => {
        clearTimeout(timer);
        const text = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode !== 200) return reject(new IssuerStatusError(res.statusCode ?? 0, res.statusMessage ?? '', text));
        try {
          resolve(JSON.parse(text));
        } catch (err) {
          reject(new Error(`failed to decode the answer of ${url}: ${(err as Error).message}`));
        }
      });
    });
    const timer = setTimeout(() => req.destroy(new Error(`Get "${url}": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`)), timeoutMs);
    timer.unref();
    function fail(err: Error): void {
      clearTimeout(timer);
      reject(err);
    }
    req.on('error', (err) => fail(new Error(err.message.startsWith('Get ') ? err.message : `Get "${url}": ${err.message}`)));
  });
}

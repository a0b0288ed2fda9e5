/**
 * Bearer tokens in a WebSocket subprotocol (kube's websocket protocol authenticator): browsers
 * cannot set an Authorization header on a WebSocket, so they send
 * `Sec-WebSocket-Protocol: base64url.bearer.authorization.k8s.io.<token, base64url>, <protocol>`.
 * Only upgrade requests are looked at; the token must come with at least one other subprotocol
 * (to echo back), at most once, and is removed from the header on success. A token nobody
 * accepts is invalid (401).
 */
import type { IncomingMessage } from 'node:http';
import { AuthenticationError, type AuthenticationResult, type MaybePromise, type Authenticator, type TokenAuthenticator } from './interface.js';

const prefix = 'base64url.bearer.authorization.k8s.io.';

function isWebSocket(req: IncomingMessage): boolean {
  const connection = req.headers.connection;
  const upgrade = req.headers.upgrade;
  return typeof connection === 'string' && /(^|,)\s*upgrade\s*(,|$)/i.test(connection) && typeof upgrade === 'string' && upgrade.toLowerCase() === 'websocket';
}

/** Authenticates WebSocket requests by the bearer token in their subprotocols. */
export class WebSocketProtocolAuthenticator implements Authenticator {
  constructor(
    private readonly tokens: TokenAuthenticator,
    private readonly apiAudiences: readonly string[],
  ) {}

  /** Synchronous for every request that is not a WebSocket carrying a token (nearly all of them). */
  authenticate(req: IncomingMessage): MaybePromise<AuthenticationResult | undefined> {
    if (!req.headers['sec-websocket-protocol'] || !isWebSocket(req)) return undefined;
    let token = '';
    let sawToken = false;
    const others: string[] = [];
    for (const header of req.headersDistinct['sec-websocket-protocol'] ?? []) {
      for (const raw of header.split(',')) {
        const protocol = raw.trim();
        if (!protocol.startsWith(prefix)) {
          others.push(protocol);
          continue;
        }
        if (sawToken) throw new AuthenticationError('multiple base64.bearer.authorization tokens specified');
        sawToken = true;
        const encoded = protocol.slice(prefix.length);
        if (!/^[A-Za-z0-9_-]*$/.test(encoded) || encoded.length % 4 === 1) throw new AuthenticationError('invalid base64.bearer.authorization token encoding');
        const decoded = Buffer.from(encoded, 'base64url');
        token = decoded.toString('utf8');
        if (!Buffer.from(token, 'utf8').equals(decoded)) throw new AuthenticationError('invalid base64.bearer.authorization token');
      }
    }
    if (token.length > 0 && others.length === 0) throw new AuthenticationError('missing additional subprotocol');
    if (token.length === 0) return undefined;
    const remaining = others.join(',');
    const accept = (r: AuthenticationResult | undefined): AuthenticationResult => {
      if (!r) throw new AuthenticationError('invalid bearer token');
      req.headers['sec-websocket-protocol'] = remaining;
      return r;
    };
    const r = this.tokens.authenticateToken(token, this.apiAudiences);
    return r instanceof Promise ? r.then(accept) : accept(r);
  }
}

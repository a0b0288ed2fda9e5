/**
 * Bootstrap tokens (--enable-bootstrap-token-auth): a bearer token "<id>.<secret>" (6 and 16 of
 * [a-z0-9]) is the Secret kube-system/bootstrap-token-<id> of type bootstrap.kubernetes.io/token
 * whose token-id and token-secret match (compared in constant time), that is not being deleted,
 * not past its expiration and marked usage-bootstrap-authentication=true. The user is
 * system:bootstrap:<id> in system:bootstrappers plus the Secret's auth-extra-groups (sorted, as
 * kube sorts them). Anything else is no opinion, logged at -v=3. The Secrets are read from an
 * informer (a watched copy), never from storage per request.
 */
import { timingSafeEqual } from 'node:crypto';
import type { KubeObject } from '../../api/meta/types.js';
import { Informer } from '../controllers/informer.js';
import type { Logger } from '../observability/logging.js';
import type { RestStorage } from '../registry/interface.js';
import type { AuthenticationResult, TokenAuthenticator } from './interface.js';

const tokenPattern = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;
const groupPattern = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/;
const secretType = 'bootstrap.kubernetes.io/token';
const defaultGroup = 'system:bootstrappers';
const rfc3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** A value of the Secret's data, decoded; "" when absent. */
function data(secret: KubeObject, key: string): string {
  const v = (secret.data as Record<string, unknown> | undefined)?.[key];
  return typeof v === 'string' ? Buffer.from(v, 'base64').toString('utf8') : '';
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The groups a bootstrap token Secret grants; throws on an invalid auth-extra-groups entry. */
export function bootstrapGroups(secret: KubeObject): string[] {
  const groups = new Set([defaultGroup]);
  const extra = data(secret, 'auth-extra-groups');
  if (extra !== '') {
    for (const g of extra.split(',')) {
      if (!groupPattern.test(g)) throw new Error(`bootstrap group ${JSON.stringify(g)} is invalid (must match ${groupPattern.source})`);
      groups.add(g);
    }
  }
  return [...groups].sort();
}

/** Authenticates bootstrap tokens from the Secrets an informer follows. Answers synchronously. */
export class BootstrapTokenAuthenticator implements TokenAuthenticator {
  constructor(
    private readonly secrets: Pick<Informer, 'get'>,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Builds one over secrets' storage with its own informer; start it, and stop it with the server. */
  static withInformer(storage: RestStorage, log: Logger): { authenticator: BootstrapTokenAuthenticator; informer: Informer } {
    const informer = new Informer({ storage, resource: 'secrets', log });
    return { authenticator: new BootstrapTokenAuthenticator(informer, log), informer };
  }

  authenticateToken(token: string): AuthenticationResult | undefined {
    const m = tokenPattern.exec(token);
    if (!m) return undefined;
    const [, id, secretPart] = m as unknown as [string, string, string];
    const name = `bootstrap-token-${id}`;
    const secret = this.secrets.get(`kube-system/${name}`);
    const reject = (why: string): undefined => {
      this.log.v(3, `Bootstrap secret kube-system/${name} matching bearer token ${id}.<redacted> ${why}`);
      return undefined;
    };
    if (!secret) {
      this.log.v(3, `No secret of name ${name} to match bootstrap bearer token`);
      return undefined;
    }
    if (secret.metadata.deletionTimestamp) return reject('is deleted and awaiting removal');
    if (secret.type !== secretType || !secret.data) return reject(`has invalid type, expected ${secretType}.`);
    if (!sameSecret(data(secret, 'token-secret'), secretPart)) return reject('has invalid value for key token-secret.');
    if (data(secret, 'token-id') !== id) return reject('has invalid value for key token-id.');
    const expiration = data(secret, 'expiration');
    if (expiration !== '') {
      const at = rfc3339.test(expiration) ? Date.parse(expiration) : NaN;
      if (Number.isNaN(at)) return reject(`has unparsable expiration time (${expiration}); treating it as expired.`);
      if (this.now() > at) return reject(`has expired (${expiration}).`);
    }
    if (data(secret, 'usage-bootstrap-authentication') !== 'true') return reject('not marked usage-bootstrap-authentication=true.');
    let groups: string[];
    try {
      groups = bootstrapGroups(secret);
    } catch (err) {
      return reject(`has invalid value for key auth-extra-groups: ${(err as Error).message}.`);
    }
    return { user: { name: `system:bootstrap:${id}`, groups } };
  }
}

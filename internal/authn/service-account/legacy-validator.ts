/**
 * Validation of legacy Secret-based service account tokens (kube's legacy.go): the four private
 * claims and the subject must agree; with --service-account-lookup the Secret must exist, not be
 * deleting, hold this very token and not carry the invalid-since label, and the service account
 * must exist with the token's uid. A used token's Secret gets the legacy-token-last-used label
 * (the date, written at most once a day and never on the request's path).
 */
import { timingSafeEqual } from 'node:crypto';
import type { KubeObject } from '../../../api/meta/types.js';
import type { Logger } from '../../observability/logging.js';
import type { RestStorage } from '../../registry/interface.js';
import { internalContext } from '../../request/context.js';
import { splitServiceAccountUsername } from '../../serviceaccount/claims.js';
import type { TokenClaimsValidator } from './jwt-authenticator.js';
import type { ServiceAccountTokenGetter } from './getter.js';
import type { ServiceAccountInfo } from './user-info.js';

/** The label kube stamps on a legacy token's Secret with the day it was last used. */
export const lastUsedLabelKey = 'kubernetes.io/legacy-token-last-used';
/** The label that marks a legacy token as no longer accepted. */
export const invalidSinceLabelKey = 'kubernetes.io/legacy-token-invalid-since';

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function sameToken(stored: unknown, token: string): boolean {
  if (typeof stored !== 'string') return false;
  const a = Buffer.from(stored, 'base64');
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The validator of tokens the token controller wrote into Secrets. */
export class LegacyTokenValidator implements TokenClaimsValidator {
  private readonly labelling = new Set<string>();

  constructor(
    private readonly lookup: boolean,
    private readonly getter: ServiceAccountTokenGetter,
    /** The secrets storage, for the last-used label; absent: no label is written. */
    private readonly secrets: RestStorage | undefined,
    private readonly log: Logger,
  ) {}

  async validate(token: string, claims: Readonly<Record<string, unknown>>): Promise<ServiceAccountInfo> {
    const sub = str(claims.sub);
    if (!sub) throw new Error('sub claim is missing');
    const namespace = str(claims['kubernetes.io/serviceaccount/namespace']);
    if (!namespace) throw new Error('namespace claim is missing');
    const secretName = str(claims['kubernetes.io/serviceaccount/secret.name']);
    if (!secretName) throw new Error('secretName claim is missing');
    const name = str(claims['kubernetes.io/serviceaccount/service-account.name']);
    if (!name) throw new Error('serviceAccountName claim is missing');
    const uid = str(claims['kubernetes.io/serviceaccount/service-account.uid']);
    if (!uid) throw new Error('serviceAccountUID claim is missing');
    const subject = splitServiceAccountUsername(sub);
    if (!subject || subject.namespace !== namespace || subject.name !== name) throw new Error('sub claim is invalid');

    if (this.lookup) {
      const [secretResult, accountResult] = await Promise.allSettled([this.getter.secret(namespace, secretName), this.getter.serviceAccount(namespace, name)]);
      if (secretResult.status === 'rejected') throw new Error('Token has been invalidated');
      const secret = secretResult.value;
      if (secret.metadata.deletionTimestamp) throw new Error('Token has been invalidated');
      if (!sameToken((secret.data as Record<string, unknown> | undefined)?.token, token)) throw new Error("Token does not match server's copy");
      if (accountResult.status === 'rejected') throw accountResult.reason;
      const account = accountResult.value;
      if (account.metadata.deletionTimestamp) throw new Error(`ServiceAccount ${namespace}/${name} has been deleted`);
      if (account.metadata.uid !== uid) throw new Error(`ServiceAccount UID (${account.metadata.uid ?? ''}) does not match claim (${uid})`);
      if (secret.metadata.labels?.[invalidSinceLabelKey]) {
        this.markUsed(secret);
        throw new Error(
          `the token in secret ${namespace}/${secretName} for service account ${namespace}/${name} has been marked invalid. Use tokens from the TokenRequest API or manually created secret-based tokens, or remove the '${invalidSinceLabelKey}' label from the secret to temporarily allow use of this token`,
        );
      }
      this.markUsed(secret);
    }
    return { namespace, name, uid };
  }

  /** Labels the Secret with today's date unless it already says today (or tomorrow, for skew). */
  private markUsed(secret: KubeObject): void {
    const now = Date.now();
    const today = day(now);
    const last = secret.metadata.labels?.[lastUsedLabelKey];
    if (!this.secrets?.update || last === today || last === day(now + 86_400_000)) return;
    const namespace = secret.metadata.namespace ?? '';
    const name = secret.metadata.name ?? '';
    const key = `${namespace}/${name}`;
    if (this.labelling.has(key)) return;
    this.labelling.add(key);
    const uid = secret.metadata.uid;
    const ctx = internalContext({ verb: 'patch', resource: 'secrets', namespace, name });
    this.secrets
      .update(ctx, name, {
        updatedObject: async (_ctx, old) => {
          if (!old || old.metadata.uid !== uid) throw new Error('the secret was replaced');
          return { ...old, metadata: { ...old.metadata, labels: { ...old.metadata.labels, [lastUsedLabelKey]: today } } };
        },
      }, { dryRun: false })
      .catch((err: unknown) => this.log.warn(`Failed to label legacy service account token ${namespace}/${name} with last-used date, err: ${(err as Error).message}`))
      .finally(() => this.labelling.delete(key));
  }
}

/**
 * The service account token controller (kube-controller-manager's TokensController, which Capstan
 * runs inside the API server since it has no controller manager). For every Secret of type
 * kubernetes.io/service-account-token it fills in what is missing — data.token (a legacy token
 * signed with the signing key), data.namespace, data["ca.crt"] (the serving CA) — and the
 * service-account.uid annotation, when the service account the Secret names exists (with the
 * uid it names, if any). As kube's does, it deletes such a Secret whose service account does not
 * exist, deletes the token Secrets of a deleted service account, and drops a deleted Secret from
 * its service account's secrets list.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { hasReason } from '../../apierrors/status-error.js';
import type { Logger } from '../../observability/logging.js';
import type { RestStorage } from '../../registry/interface.js';
import { internalContext } from '../../request/context.js';
import { legacyClaims } from '../../serviceaccount/claims.js';
import type { TokenGenerator } from '../../serviceaccount/token-generator.js';
import { Informer } from '../informer.js';
import { filledTokenSecret, isTokenSecretOf, missingTokenData, nameAnnotation, serviceAccountTokenType, uidAnnotation } from './token-secret.js';

/** What the controller works with. */
export interface TokenControllerDeps {
  readonly secrets: RestStorage;
  readonly serviceAccounts: RestStorage;
  /** Signs legacy tokens (issuer "kubernetes/serviceaccount"). */
  readonly generator: TokenGenerator;
  /** PEM of the CA clients verify the API server with (data["ca.crt"]); absent: not written. */
  readonly rootCA?: string;
  readonly log: Logger;
  /** Pause before a failed item is tried again (default 1 s); an item is tried at most 10 times. */
  readonly retryMs?: number;
}

type WorkItem =
  | { readonly kind: 'secret'; readonly namespace: string; readonly name: string }
  | { readonly kind: 'secret-deleted'; readonly secret: KubeObject }
  | { readonly kind: 'account-deleted'; readonly account: KubeObject };

const maxRetries = 10;

/** Thrown inside an update when the stored Secret moved on: its own event will bring it back. */
class StaleCopy extends Error {}

/** Runs the token controller; start() it once, stop() at shutdown. */
export class ServiceAccountTokenController {
  private readonly secretInformer: Informer;
  private readonly accountInformer: Informer;
  private readonly queue: Array<{ item: WorkItem; tries: number }> = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private running = false;
  private stopped = false;

  constructor(private readonly deps: TokenControllerDeps) {
    this.secretInformer = new Informer({ storage: deps.secrets, resource: 'secrets', log: deps.log });
    this.accountInformer = new Informer({ storage: deps.serviceAccounts, resource: 'serviceaccounts', log: deps.log });
  }

  /** Starts both informers and the work loop; returns at once. */
  start(): void {
    const isToken = (s: KubeObject): boolean => s.type === serviceAccountTokenType;
    const onSecret = (s: KubeObject): void => {
      if (isToken(s)) this.enqueue({ kind: 'secret', namespace: s.metadata.namespace ?? '', name: s.metadata.name ?? '' });
    };
    this.secretInformer.addHandlers({ added: onSecret, updated: onSecret, deleted: (s) => isToken(s) && this.enqueue({ kind: 'secret-deleted', secret: s }) });
    this.accountInformer.addHandlers({ deleted: (a) => this.enqueue({ kind: 'account-deleted', account: a }) });
    this.accountInformer.start();
    this.secretInformer.start();
  }

  /** Stops the informers and pending retries. */
  stop(): void {
    this.stopped = true;
    this.secretInformer.stop();
    this.accountInformer.stop();
    for (const t of this.timers) clearTimeout(t);
  }

  private enqueue(item: WorkItem, tries = 0): void {
    if (this.stopped) return;
    this.queue.push({ item, tries });
    if (!this.running) void this.drain();
  }

  private async drain(): Promise<void> {
    this.running = true;
    // The service accounts must be known before a Secret can be judged.
    await this.accountInformer.synced;
    while (this.queue.length > 0 && !this.stopped) {
      const { item, tries } = this.queue.shift() as { item: WorkItem; tries: number };
      try {
        await this.process(item);
      } catch (err) {
        this.deps.log.warn(`service account token controller: ${describe(item)}: ${(err as Error).message}`);
        if (tries + 1 < maxRetries) {
          const t = setTimeout(() => {
            this.timers.delete(t);
            this.enqueue(item, tries + 1);
          }, this.deps.retryMs ?? 1000);
          t.unref();
          this.timers.add(t);
        }
      }
    }
    this.running = false;
  }

  private process(item: WorkItem): Promise<void> {
    switch (item.kind) {
      case 'secret':
        return this.syncSecret(item.namespace, item.name);
      case 'secret-deleted':
        return this.removeReference(item.secret);
      case 'account-deleted':
        return this.deleteTokens(item.account);
    }
  }

  /** The service account a token Secret names, from the informer, else live; undefined when gone or replaced. */
  private async accountFor(namespace: string, name: string, uid: string): Promise<KubeObject | undefined> {
    let account = this.accountInformer.get(`${namespace}/${name}`);
    if (!account) {
      try {
        const s = this.deps.serviceAccounts;
        account = await (s.get as NonNullable<RestStorage['get']>).call(s, internalContext({ verb: 'get', resource: 'serviceaccounts', namespace, name }), name, { resourceVersion: '' });
      } catch (err) {
        if (!hasReason(err, 'NotFound')) throw err;
        return undefined;
      }
    }
    return uid && account.metadata.uid !== uid ? undefined : account;
  }

  private async syncSecret(namespace: string, name: string): Promise<void> {
    const cached = this.secretInformer.get(`${namespace}/${name}`);
    if (!cached || cached.type !== serviceAccountTokenType) return;
    const annotations = cached.metadata.annotations ?? {};
    const account = await this.accountFor(namespace, annotations[nameAnnotation] ?? '', annotations[uidAnnotation] ?? '');
    if (!account) {
      await this.deleteSecret(cached);
      return;
    }
    const missing = missingTokenData(cached, this.deps.rootCA);
    if (!missing.ca && !missing.namespace && !missing.token) return;
    const s = this.deps.secrets;
    const ctx = internalContext({ verb: 'update', resource: 'secrets', namespace, name });
    try {
      await (s.update as NonNullable<RestStorage['update']>).call(s, ctx, name, {
        updatedObject: async (_ctx, live) => {
          if (!live || live.metadata.resourceVersion !== cached.metadata.resourceVersion) throw new StaleCopy();
          const sa = { namespace, name: account.metadata.name ?? '', uid: account.metadata.uid ?? '' };
          const next = filledTokenSecret(live, account, this.deps.rootCA, () => this.deps.generator.generate(legacyClaims(sa, name)));
          if (!next) throw new StaleCopy();
          return next;
        },
      }, { dryRun: false });
    } catch (err) {
      if (err instanceof StaleCopy || hasReason(err, 'NotFound') || hasReason(err, 'Conflict')) return;
      throw err;
    }
  }

  private async deleteSecret(secret: KubeObject): Promise<void> {
    const namespace = secret.metadata.namespace ?? '';
    const name = secret.metadata.name ?? '';
    const s = this.deps.secrets;
    try {
      await (s.delete as NonNullable<RestStorage['delete']>).call(s, internalContext({ verb: 'delete', resource: 'secrets', namespace, name }), name, {
        dryRun: false,
        ...(secret.metadata.uid ? { preconditions: { uid: secret.metadata.uid } } : {}),
      });
    } catch (err) {
      if (!hasReason(err, 'NotFound') && !hasReason(err, 'Conflict')) throw err;
    }
  }

  private async deleteTokens(account: KubeObject): Promise<void> {
    for (const secret of [...this.secretInformer.list()]) {
      if (isTokenSecretOf(secret, account)) await this.deleteSecret(secret);
    }
  }

  private async removeReference(secret: KubeObject): Promise<void> {
    const namespace = secret.metadata.namespace ?? '';
    const annotations = secret.metadata.annotations ?? {};
    const saName = annotations[nameAnnotation] ?? '';
    const account = this.accountInformer.get(`${namespace}/${saName}`);
    const refs = Array.isArray(account?.secrets) ? (account?.secrets as Array<{ name?: string }>) : [];
    if (!account || (annotations[uidAnnotation] && account.metadata.uid !== annotations[uidAnnotation])) return;
    if (!refs.some((r) => r.name === secret.metadata.name)) return;
    const s = this.deps.serviceAccounts;
    const ctx = internalContext({ verb: 'update', resource: 'serviceaccounts', namespace, name: saName });
    try {
      await (s.update as NonNullable<RestStorage['update']>).call(s, ctx, saName, {
        updatedObject: async (_ctx, live) => {
          if (!live || live.metadata.uid !== account.metadata.uid) throw new StaleCopy();
          const kept = (Array.isArray(live.secrets) ? (live.secrets as Array<{ name?: string }>) : []).filter((r) => r.name !== secret.metadata.name);
          return { ...live, secrets: kept };
        },
      }, { dryRun: false });
    } catch (err) {
      if (err instanceof StaleCopy || hasReason(err, 'NotFound')) return;
      throw err;
    }
  }
}

function describe(item: WorkItem): string {
  if (item.kind === 'secret') return `secret ${item.namespace}/${item.name}`;
  const obj = item.kind === 'secret-deleted' ? item.secret : item.account;
  return `${item.kind} ${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`;
}

/**
 * kube's audit webhook backend (k8s.io/apiserver/plugin/pkg/audit/webhook): each call POSTs the
 * events as one audit.k8s.io/v1 EventList to the server named by --audit-webhook-config-file (a
 * kubeconfig), retrying on any error (kube's retryOnError, not the narrower retry rule of the
 * authentication and authorization webhooks) with exponential backoff: the first wait
 * --audit-webhook-initial-backoff, then 1.5 times longer each time, up to 20% jitter, 5 calls in
 * all, each call given 30 s. What still fails is counted and logged against the plugin "webhook".
 */
import { stat } from 'node:fs/promises';
import { defaultWebhookTimeoutMs, WebhookClient, type Backoff } from '../webhook/client.js';
import { loadWebhookKubeconfig } from '../webhook/kubeconfig.js';
import type { AuditBackend, AuditBackendObserver, AuditEvent } from './interface.js';
import { reportPluginError } from './plugin-error.js';

/** The plugin name (--audit-webhook-*, apiserver_audit_error_total{plugin="webhook"}). */
export const webhookPluginName = 'webhook';

/** kube's default --audit-webhook-initial-backoff. */
export const defaultInitialBackoffMs = 10_000;

/** The event versions the webhook can send (--audit-webhook-version); 1.33 knows only v1. */
const knownGroupVersions = ['audit.k8s.io/v1'];

/** kube's webhook retry backoff (DefaultRetryBackoffWithInitialDelay) from the initial wait. */
export function auditWebhookBackoff(initialBackoffMs: number): Backoff {
  return { initialMs: initialBackoffMs, factor: 1.5, jitter: 0.2, steps: 5 };
}

/**
 * kube's check of --audit-webhook-version (and --audit-log-version): the message it refuses a
 * version with, or undefined for a known one.
 */
export function auditGroupVersionError(version: string): string | undefined {
  if ((version.match(/\//g)?.length ?? 0) > 1) return `unexpected GroupVersion string: ${version}`;
  if (knownGroupVersions.includes(version)) return undefined;
  return `invalid group version, allowed versions are [${knownGroupVersions.map((v) => JSON.stringify(v)).join(' ')}]`;
}

const retryOnError = (): boolean => true;

/** An event as an EventList item: kube's items carry no kind or apiVersion of their own. */
function listItem(ev: AuditEvent): Omit<AuditEvent, 'kind' | 'apiVersion'> {
  const { kind: _kind, apiVersion: _apiVersion, ...item } = ev;
  return item;
}

/** The webhook backend: every call is one POST (with its retries); it buffers nothing itself. */
class WebhookBackend implements AuditBackend {
  readonly name = webhookPluginName;
  private readonly inFlight = new Set<Promise<boolean>>();

  constructor(
    private readonly client: WebhookClient,
    private readonly observer: AuditBackendObserver | undefined,
  ) {}

  /** Sends events; resolves false (never rejects) when the webhook could not take them after its retries. */
  processEvents(events: readonly AuditEvent[]): Promise<boolean> {
    const call = this.send(events);
    this.inFlight.add(call);
    void call.then(() => this.inFlight.delete(call));
    return call;
  }

  private async send(events: readonly AuditEvent[]): Promise<boolean> {
    try {
      await this.client.post({ kind: 'EventList', apiVersion: 'audit.k8s.io/v1', metadata: {}, items: events.map(listItem) });
      return true;
    } catch (err) {
      reportPluginError(this.observer, webhookPluginName, err, events);
      return false;
    }
  }

  /** Waits for the calls in progress (with their retries), then closes the connections. */
  async shutdown(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    this.client.close();
  }
}

/**
 * Builds the webhook backend from --audit-webhook-config-file. Refuses (throws, with kube's
 * message) a missing or malformed kubeconfig and any version but audit.k8s.io/v1. The backend sends
 * synchronously to the caller's rhythm; batch mode wraps it in a BufferedBackend.
 */
export async function loadWebhookBackend(opts: {
  configFile: string;
  initialBackoffMs: number;
  version: string;
  observer?: AuditBackendObserver;
}): Promise<AuditBackend> {
  const versionError = auditGroupVersionError(opts.version);
  if (versionError) throw new Error(versionError);
  try {
    await stat(opts.configFile);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    const why = code === 'ENOENT' ? 'no such file or directory' : code === 'EACCES' ? 'permission denied' : (err as Error).message;
    throw new Error(`initializing audit webhook: stat ${opts.configFile}: ${why}`);
  }
  let target;
  try {
    target = await loadWebhookKubeconfig(opts.configFile);
  } catch (err) {
    throw new Error(`initializing audit webhook: ${(err as Error).message}`);
  }
  // client-go's rest client names its timeout in the query of every call; receivers see kube's URL.
  const url = new URL(target.server);
  url.searchParams.set('timeout', `${defaultWebhookTimeoutMs / 1000}s`);
  const client = new WebhookClient({ ...target, server: url.href }, { backoff: auditWebhookBackoff(opts.initialBackoffMs), shouldRetry: retryOnError });
  return new WebhookBackend(client, opts.observer);
}

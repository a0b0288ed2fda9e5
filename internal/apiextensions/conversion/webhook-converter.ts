/**
 * Strategy Webhook (kube's webhookConverter): one ConversionReview POSTed to the CRD's
 * clientConfig (url, or the service resolved to an address, verified against caBundle, with no
 * client credentials as kube's conversion client has none) within kube's 30 s webhook timeout, its
 * answer checked, and the converted objects decoded. Traced as "Call conversion webhook" when
 * tracing is on; each call counted in apiserver_conversion_webhook_* and each conversion timed in
 * apiserver_crd_conversion_webhook_duration_seconds.
 */
import { randomUUID } from 'node:crypto';
import type { KubeObject } from '../../../api/meta/types.js';
import type { AuthenticationResolver } from '../../admission/plugins/webhook/authentication.js';
import { HookClient } from '../../admission/plugins/webhook/client.js';
import type { AddressResolver } from '../../admission/plugins/webhook/service-resolver.js';
import type { WebhookClientConfig } from '../../admission/plugins/webhook/types.js';
import type { ConversionWebhookMetrics } from '../../observability/conversion-webhook-metrics.js';
import { activeTrace, inChildSpan } from '../../observability/tracing/context.js';
import { defaultWebhookTimeoutMs } from '../../webhook/client.js';
import { parseGroupVersion } from './group-version.js';
import type { VersionConverter } from './interface.js';
import { conversionReview, convertedObjectsFromResponse, decodeConvertedObject, pickReviewVersion } from './review.js';

/** kube's conversion webhook client authenticates with nothing (NewDefaultAuthenticationInfoResolver("")). */
const anonymous: AuthenticationResolver = { forHost: () => ({}), forService: () => ({}) };

/** What a webhook converter is made of. */
export interface WebhookConverterOptions {
  readonly crdName: string;
  readonly clientConfig: WebhookClientConfig;
  readonly conversionReviewVersions: readonly string[];
  readonly services: AddressResolver;
  readonly metrics?: ConversionWebhookMetrics;
  /** The whole call's limit; kube's 30 s unless a test shortens it. */
  readonly timeoutMs?: number;
}

/** Converts through the CRD's conversion webhook. */
export class WebhookConverter implements VersionConverter {
  private readonly client: HookClient;
  private readonly timeoutMs: number;

  /** Throws when clientConfig cannot make a client (an unparsable url). */
  constructor(private readonly opts: WebhookConverterOptions) {
    this.client = new HookClient(opts.clientConfig, anonymous, opts.services);
    this.client.baseUrl();
    this.timeoutMs = opts.timeoutMs ?? defaultWebhookTimeoutMs;
  }

  async convert(objects: readonly KubeObject[], toApiVersion: string, listGvk: string): Promise<unknown[]> {
    const version = pickReviewVersion(this.opts.conversionReviewVersions);
    if (!version) throw new Error('no supported conversion review versions');
    const uid = randomUUID();
    const started = performance.now();
    const call = () => this.call(version, uid, objects, toApiVersion, listGvk, started);
    const t = activeTrace();
    const out = t
      ? await inChildSpan(t, 'Call conversion webhook', { 'custom-resource-definition': this.opts.crdName, 'desired-api-version': toApiVersion, 'object-count': objects.length, UID: uid }, call)
      : await call();
    return out;
  }

  private async call(version: 'v1' | 'v1beta1', uid: string, objects: readonly KubeObject[], toApiVersion: string, listGvk: string, started: number): Promise<unknown[]> {
    const metrics = this.opts.metrics;
    const fromVersion = parseGroupVersion(objects[0]?.apiVersion).version;
    const toVersion = parseGroupVersion(toApiVersion).version;
    const fail = (message: string): never => {
      const seconds = (performance.now() - started) / 1000;
      metrics?.observeWebhookFailure('conversion_webhook_call_failure', seconds);
      metrics?.observeConversion(this.opts.crdName, fromVersion, toVersion, false, seconds);
      throw new Error(`conversion webhook for ${listGvk} failed: ${message}`);
    };
    let body: unknown;
    try {
      body = await this.client.post(conversionReview(version, uid, toApiVersion, objects), this.timeoutMs);
    } catch (err) {
      fail((err as Error).message);
    }
    let raw: unknown[] = [];
    try {
      raw = convertedObjectsFromResponse(version, uid, body);
    } catch (err) {
      fail((err as Error).message);
    }
    try {
      const out = raw.map(decodeConvertedObject);
      const seconds = (performance.now() - started) / 1000;
      metrics?.observeWebhookSuccess(seconds);
      metrics?.observeConversion(this.opts.crdName, fromVersion, toVersion, true, seconds);
      return out;
    } catch (err) {
      metrics?.observeConversion(this.opts.crdName, fromVersion, toVersion, false, (performance.now() - started) / 1000);
      throw err;
    }
  }

  close(): void {
    this.client.close();
  }
}

/**
 * Custom resource conversion (kube's apiextensions-apiserver pkg/apiserver/conversion): the entry
 * the serving layer calls once per CRD generation. Strategy None changes only apiVersion; Webhook
 * sends a ConversionReview to the CRD's conversion webhook. Both run behind kube's checks
 * (delegating-converter.ts).
 */
import type { KubeObject } from '../../../api/meta/types.js';
import type { WebhookClientConfig } from '../../admission/plugins/webhook/types.js';
import { conversionWebhookMetrics } from '../../observability/conversion-webhook-metrics.js';
import type { CustomResourceConverter } from '../interface.js';
import { DelegatingConverter } from './delegating-converter.js';
import type { VersionConverter } from './interface.js';
import { nopConverter } from './nop-converter.js';
import { storageAddressResolver, type ServiceRouting, type StorageLookup } from './service-source.js';
import { WebhookConverter } from './webhook-converter.js';

export { ConversionError } from './errors.js';
export type { ServiceRouting } from './service-source.js';

/** What a converter needs from the server. */
export interface ConverterDeps {
  /** Reads Services and Endpoints/EndpointSlices to reach a webhook service (stored form). */
  readonly storageOf: StorageLookup;
  /** The server's metrics registry; conversion webhook metrics are registered on it (none when absent). */
  readonly metrics?: import('prom-client').Registry;
  /** How service references are dialed; "endpoint" when absent (see service-source.ts). */
  readonly serviceRouting?: ServiceRouting;
  /** A webhook call's limit in milliseconds; kube's 30 s when absent. */
  readonly webhookTimeoutMs?: number;
}

interface CrdConversion {
  strategy?: string;
  webhook?: { clientConfig?: WebhookClientConfig; conversionReviewVersions?: string[] };
}

interface CrdSpec {
  group?: string;
  versions?: Array<{ name?: string }>;
  conversion?: CrdConversion;
}

/**
 * The converter of crd (an apiextensions.k8s.io/v1 CustomResourceDefinition, as validated and
 * defaulted). Never throws: a CRD it cannot convert for gives a converter whose conversions fail
 * with the reason (objects already in the wanted version still pass).
 */
export function buildConverter(crd: KubeObject, deps: ConverterDeps): CustomResourceConverter {
  const spec = (crd.spec ?? {}) as CrdSpec;
  const group = spec.group ?? '';
  const valid = new Set((spec.versions ?? []).map((v) => `${group}/${v.name ?? ''}`));
  const strategy = spec.conversion?.strategy ?? 'None';
  if (strategy === 'None') return new DelegatingConverter(valid, nopConverter, true);
  if (strategy !== 'Webhook') return new DelegatingConverter(valid, new Error(`unknown conversion strategy ${JSON.stringify(strategy)} for CRD ${crd.metadata.name}`), false);
  const webhook = spec.conversion?.webhook;
  if (!webhook?.clientConfig) return new DelegatingConverter(valid, new Error(`spec.conversion.webhook.clientConfig of CRD ${crd.metadata.name} is required with strategy Webhook`), false);
  let delegate: VersionConverter | Error;
  try {
    delegate = new WebhookConverter({
      crdName: crd.metadata.name ?? '',
      clientConfig: webhook.clientConfig,
      conversionReviewVersions: webhook.conversionReviewVersions ?? [],
      services: storageAddressResolver(deps.storageOf, deps.serviceRouting ?? 'endpoint'),
      ...(deps.metrics ? { metrics: conversionWebhookMetrics(deps.metrics) } : {}),
      ...(deps.webhookTimeoutMs !== undefined ? { timeoutMs: deps.webhookTimeoutMs } : {}),
    });
  } catch (err) {
    delegate = err instanceof Error ? err : new Error(String(err));
  }
  return new DelegatingConverter(valid, delegate, false);
}

/**
 * ImagePolicyWebhook: asks a backend (kubeconfig of the plugin's configuration) whether a pod's
 * images may run, with an ImageReview (imagepolicy.k8s.io/v1alpha1) of the containers' images
 * (the ephemeral containers' for pods/ephemeralcontainers), the pod's "*.image-policy.k8s.io/*"
 * annotations and its namespace. Answers are cached for allowTTL / denyTTL; a backend failure
 * refuses the pod unless defaultAllow, which lets it in annotated as failed open. The backend's
 * audit annotations are recorded under imagepolicywebhook.image-policy.k8s.io/.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { newBadRequest } from '../../../apierrors/factories.js';
import { admissionForbidden } from '../../forbidden.js';
import { WebhookClient } from '../../../webhook/client.js';
import { loadWebhookKubeconfig } from '../../../webhook/kubeconfig.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin } from '../../interface.js';
import type { AdmissionPluginDeps } from '../deps.js';
import { parseImagePolicyConfig, type ImagePolicyConfig } from './config.js';
import { ExpiringLruCache } from './review-cache.js';

/** The prefix of the plugin's audit annotations. */
export const auditKeyPrefix = 'imagepolicywebhook.image-policy.k8s.io/';
/** The pod annotation set when a pod was let in because the backend failed (defaultAllow). */
export const failedOpenPodAnnotation = 'alpha.image-policy.k8s.io/failed-open';

/** An ImageReview's status. */
interface ReviewStatus {
  readonly allowed: boolean;
  readonly reason?: string;
  readonly auditAnnotations?: Readonly<Record<string, string>>;
}

interface PodLike extends KubeObject {
  spec?: { containers?: Array<{ image?: string }>; initContainers?: Array<{ image?: string }>; ephemeralContainers?: Array<{ image?: string }> };
}

function imagePolicyAnnotations(all: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!all) return out;
  for (const k of Object.keys(all).sort()) if (k.includes('.image-policy.k8s.io/')) out[k] = all[k] as string;
  return out;
}

/** The ImagePolicyWebhook plugin. */
export class ImagePolicyWebhook implements AdmissionPlugin {
  readonly name = 'ImagePolicyWebhook';
  private readonly cache = new ExpiringLruCache<ReviewStatus>();

  constructor(
    private readonly config: ImagePolicyConfig,
    private readonly client: Pick<WebhookClient, 'post'>,
  ) {}

  handles(operation: AdmissionOperation): boolean {
    return operation === 'CREATE' || operation === 'UPDATE';
  }

  async validate(attrs: AdmissionAttributes): Promise<void> {
    const sub = attrs.subresource;
    if ((sub !== '' && sub !== 'ephemeralcontainers') || attrs.group !== '' || attrs.resource !== 'pods') return;
    const pod = attrs.object as PodLike | undefined;
    if (!pod || pod.kind !== 'Pod') throw newBadRequest('Resource was marked with kind Pod but was unable to be converted');
    const spec = pod.spec ?? {};
    const containers = sub === '' ? [...(spec.containers ?? []), ...(spec.initContainers ?? [])] : (spec.ephemeralContainers ?? []);
    const annotations = imagePolicyAnnotations(pod.metadata.annotations);
    const reviewSpec = {
      ...(containers.length > 0 ? { containers: containers.map((c) => ({ ...(c.image ? { image: c.image } : {}) })) } : {}),
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
      ...(attrs.namespace ? { namespace: attrs.namespace } : {}),
    };
    const key = JSON.stringify(reviewSpec);
    let status = this.cache.get(key);
    if (!status) {
      try {
        const answer = await this.client.post({ kind: 'ImageReview', apiVersion: 'imagepolicy.k8s.io/v1alpha1', metadata: { creationTimestamp: null }, spec: reviewSpec, status: { allowed: false } });
        const review = JSON.parse(answer.body.toString('utf8')) as { status?: ReviewStatus };
        status = { allowed: review.status?.allowed === true, ...(review.status?.reason ? { reason: review.status.reason } : {}), ...(review.status?.auditAnnotations ? { auditAnnotations: review.status.auditAnnotations } : {}) };
      } catch (err) {
        return this.backendFailed(attrs, pod, err as Error);
      }
      this.cache.add(key, status, status.allowed ? this.config.allowTTLMs : this.config.denyTTLMs);
    }
    for (const [k, v] of Object.entries(status.auditAnnotations ?? {})) attrs.addAnnotation(auditKeyPrefix + k, v);
    if (!status.allowed) {
      throw admissionForbidden(attrs, status.reason ? `image policy webhook backend denied one or more images: ${status.reason}` : 'one or more images rejected by webhook backend');
    }
  }

  /** The backend could not answer: refuse, or (defaultAllow) let the pod in marked as failed open. */
  private backendFailed(attrs: AdmissionAttributes, pod: PodLike, err: Error): void {
    if (!this.config.defaultAllow) throw admissionForbidden(attrs, err.message);
    attrs.addAnnotation(`${auditKeyPrefix}failed-open`, 'true');
    pod.metadata.annotations = { ...(pod.metadata.annotations ?? {}), [failedOpenPodAnnotation]: 'true' };
  }
}

/** Builds the plugin from its configuration; throws kube's errors for a bad one. */
export async function newImagePolicyWebhook(deps: AdmissionPluginDeps, config: unknown): Promise<ImagePolicyWebhook> {
  const parsed = parseImagePolicyConfig(config);
  const target = await loadWebhookKubeconfig(parsed.kubeConfigFile);
  const client = new WebhookClient(target, { backoff: { initialMs: parsed.retryBackoffMs, factor: 1.5, jitter: 0.2, steps: 5 } });
  deps.shutdown.addEventListener('abort', () => client.close(), { once: true });
  return new ImagePolicyWebhook(parsed, client);
}

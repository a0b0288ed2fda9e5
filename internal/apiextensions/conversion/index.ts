/**
 * Converters between a CRD's versions. PLACEHOLDER (scaffold): strategy None is real; the
 * cr-conversion work adds Webhook (ConversionReview) and replaces this file.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { newInternalError } from '../../apierrors/factories.js';
import type { CustomResourceConverter } from '../interface.js';

/** What a converter needs from the server. */
export interface ConverterDeps {
  /** Reads Services and Endpoints/EndpointSlices to reach a webhook service (stored form). */
  readonly storageOf: (group: string, resource: string, subresource?: string) => import('../../registry/interface.js').RestStorage | undefined;
}

/** The converter of crd (an apiextensions.k8s.io/v1 CustomResourceDefinition). */
export function buildConverter(crd: KubeObject, _deps: ConverterDeps): CustomResourceConverter {
  const strategy = ((crd.spec as { conversion?: { strategy?: string } } | undefined)?.conversion?.strategy) ?? 'None';
  return {
    async convert(objects, apiVersion) {
      if (strategy !== 'None') throw newInternalError('conversion webhooks are not served yet');
      return objects.map((o) => (o.apiVersion === apiVersion ? o : { ...o, apiVersion }));
    },
  };
}

/**
 * The volumeattributesclasses resource of storage.k8s.io, served in v1beta1 (kube 1.33's storage
 * version) and v1alpha1 (the same schema), stored under /volumeattributesclasses/<name>.
 */
import { identityConversion } from '../../shared/conversion.js';
import { defineResourceModule } from '../../shared/resource-module.js';
import { volumeAttributesClassStrategy } from './strategy.js';

/** Builds the storage.k8s.io/v1beta1 and v1alpha1 volumeattributesclasses registrations. */
export const volumeAttributesClassesModule = defineResourceModule({
  group: 'storage.k8s.io',
  resource: 'volumeattributesclasses',
  kind: 'VolumeAttributesClass',
  keyPrefix: '/volumeattributesclasses',
  storageVersion: 'v1beta1',
  strategy: volumeAttributesClassStrategy,
  versions: [{ version: 'v1beta1' }, { version: 'v1alpha1', conversion: identityConversion }],
});

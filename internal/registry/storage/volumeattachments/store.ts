/**
 * The volumeattachments resource of storage.k8s.io/v1, stored under /volumeattachments/<name>,
 * with volumeattachments/status.
 */
import { defineResourceModule } from '../../shared/resource-module.js';
import { volumeAttachmentStatusStrategy, volumeAttachmentStrategy } from './strategy.js';

/** Builds the storage.k8s.io/v1 volumeattachments registration. */
export const volumeAttachmentsModule = defineResourceModule({
  group: 'storage.k8s.io',
  resource: 'volumeattachments',
  kind: 'VolumeAttachment',
  keyPrefix: '/volumeattachments',
  storageVersion: 'v1',
  strategy: volumeAttachmentStrategy,
  versions: [{ version: 'v1' }],
  status: volumeAttachmentStatusStrategy,
});

/**
 * The flowschemas resource of flowcontrol.apiserver.k8s.io/v1, stored under /flowschemas/<name>,
 * with flowschemas/status.
 */
import { defineResourceModule } from '../../shared/resource-module.js';
import { statusOnlyStrategy } from '../../shared/status-only.js';
import { defaultFlowSchema, flowSchemaStrategy } from './strategy.js';

/** Builds the flowcontrol.apiserver.k8s.io/v1 flowschemas registration. */
export const flowSchemasModule = defineResourceModule({
  group: 'flowcontrol.apiserver.k8s.io',
  resource: 'flowschemas',
  kind: 'FlowSchema',
  keyPrefix: '/flowschemas',
  storageVersion: 'v1',
  strategy: flowSchemaStrategy,
  versions: [{ version: 'v1', defaulter: defaultFlowSchema }],
  status: statusOnlyStrategy,
});

/**
 * The devicetaintrules resource of resource.k8s.io/v1alpha3, stored under /devicetaintrules/<name>.
 */
import { defineResourceModule } from '../../shared/resource-module.js';
import { deviceTaintRuleStrategy } from './strategy.js';

/** Builds the resource.k8s.io/v1alpha3 devicetaintrules registration. */
export const deviceTaintRulesModule = defineResourceModule({
  group: 'resource.k8s.io',
  resource: 'devicetaintrules',
  kind: 'DeviceTaintRule',
  keyPrefix: '/devicetaintrules',
  storageVersion: 'v1alpha3',
  strategy: deviceTaintRuleStrategy,
  versions: [{ version: 'v1alpha3' }],
});

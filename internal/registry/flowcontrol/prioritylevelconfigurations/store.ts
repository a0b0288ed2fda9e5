/**
 * The prioritylevelconfigurations resource of flowcontrol.apiserver.k8s.io/v1, stored under
 * /prioritylevelconfigurations/<name>, with prioritylevelconfigurations/status.
 */
import { defineResourceModule } from '../../shared/resource-module.js';
import { statusOnlyStrategy } from '../../shared/status-only.js';
import { defaultPriorityLevelConfiguration, priorityLevelConfigurationStrategy } from './strategy.js';

/** Builds the flowcontrol.apiserver.k8s.io/v1 prioritylevelconfigurations registration. */
export const priorityLevelConfigurationsModule = defineResourceModule({
  group: 'flowcontrol.apiserver.k8s.io',
  resource: 'prioritylevelconfigurations',
  kind: 'PriorityLevelConfiguration',
  keyPrefix: '/prioritylevelconfigurations',
  storageVersion: 'v1',
  strategy: priorityLevelConfigurationStrategy,
  versions: [{ version: 'v1', defaulter: defaultPriorityLevelConfiguration }],
  status: statusOnlyStrategy,
});

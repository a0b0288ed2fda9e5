/**
 * The poddisruptionbudgets resource of policy/v1, stored under
 * /poddisruptionbudgets/<namespace>/<name>, with poddisruptionbudgets/status.
 */
import { defineResourceModule } from '../../shared/resource-module.js';
import { podDisruptionBudgetStatusStrategy, podDisruptionBudgetStrategy } from './strategy.js';

/** Builds the policy/v1 poddisruptionbudgets registration. */
export const podDisruptionBudgetsModule = defineResourceModule({
  group: 'policy',
  resource: 'poddisruptionbudgets',
  kind: 'PodDisruptionBudget',
  keyPrefix: '/poddisruptionbudgets',
  storageVersion: 'v1',
  strategy: podDisruptionBudgetStrategy,
  versions: [{ version: 'v1' }],
  status: podDisruptionBudgetStatusStrategy,
});

/**
 * The controllerrevisions resource of apps/v1, stored under /controllerrevisions/<namespace>/<name>.
 */
import { defineResourceModule } from '../../shared/resource-module.js';
import { controllerRevisionStrategy } from './strategy.js';

/** Builds the apps/v1 controllerrevisions registration. */
export const controllerRevisionsModule = defineResourceModule({
  group: 'apps',
  resource: 'controllerrevisions',
  kind: 'ControllerRevision',
  keyPrefix: '/controllerrevisions',
  storageVersion: 'v1',
  strategy: controllerRevisionStrategy,
  versions: [{ version: 'v1' }],
});

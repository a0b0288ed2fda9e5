/** The resource quota controller as an in-server controller. */
import type { InServerController } from '../../server/in-server-controllers.js';
import { quotaStatusWriter } from '../../quota/status-writer.js';
import { ResourceQuotaController } from './controller.js';

/** Starts the resource quota controller with the server's informers. */
export const resourceQuotaController: InServerController = {
  name: 'resourcequota-controller',
  controllerManagerAlias: 'resourcequota',
  start(deps) {
    const status = deps.storageOf('', 'resourcequotas', 'status');
    if (!status) throw new Error('the server does not serve resourcequotas/status');
    const controller = new ResourceQuotaController({ informers: deps.informers, writeStatus: quotaStatusWriter(status), log: deps.log });
    controller.start();
    return () => controller.stop();
  },
};

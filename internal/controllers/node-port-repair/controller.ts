/** The NodePort repair loop inside the API server: a pass at start and every 3 minutes, as kube's. */
import { NodePortAllocator } from '../../registry/core/services/node-port-allocator.js';
import { parsePortRange } from '../../registry/core/services/port-range.js';
import type { InServerController } from '../../server/in-server-controllers.js';
import { defaultServiceNetworkOptions } from '../../server/options/service-network.js';
import { EventRecorder } from '../event-recorder.js';
import { ResourceClient } from '../resource-client.js';
import { periodic } from '../periodic.js';
import { repairIntervalMs } from '../service-ip-repair/controller.js';
import { repairNodePorts } from './repair.js';

/** The portallocator-repair-controller. */
export const nodePortRepairController: InServerController = {
  name: 'portallocator-repair-controller',
  start(deps) {
    const services = deps.storageOf('', 'services');
    if (!services) return () => undefined;
    const opts = deps.options.serviceNetwork ?? defaultServiceNetworkOptions;
    const repairDeps = {
      services: new ResourceClient(services, '', 'services'),
      allocator: new NodePortAllocator(deps.storage, parsePortRange(opts.nodePortRange)),
      recorder: new EventRecorder(deps.storageOf('', 'events'), 'portallocator-repair-controller', deps.log),
      log: deps.log,
      leaks: new Map<number, number>(),
    };
    return periodic(() => repairNodePorts(repairDeps), opts.repairIntervalMs ?? repairIntervalMs, (err) => deps.log.error(`unable to refresh the port allocations: ${err.message}`), deps.shutdown);
  },
};

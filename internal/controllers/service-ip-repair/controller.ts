/**
 * The cluster IP repair loop inside the API server: a pass at start and every 3 minutes (kube's
 * --service-ip-repair interval; tests shorten it through serviceNetwork.repairIntervalMs).
 */
import { parseServiceClusterIPRanges } from '../../registry/core/services/service-cidr.js';
import type { InServerController } from '../../server/in-server-controllers.js';
import { periodic } from '../periodic.js';
import { defaultServiceNetworkOptions } from '../../server/options/service-network.js';
import { EventRecorder } from '../event-recorder.js';
import { ResourceClient } from '../resource-client.js';
import { repairClusterIPs } from './repair.js';

/** kube's IPRepairInterval. */
export const repairIntervalMs = 3 * 60_000;

/** The ipallocator-repair-controller. */
export const serviceIPRepairController: InServerController = {
  name: 'ipallocator-repair-controller',
  start(deps) {
    const services = deps.storageOf('', 'services');
    const ipAddresses = deps.storageOf('networking.k8s.io', 'ipaddresses');
    if (!services || !ipAddresses) return () => undefined;
    const cidrStorage = deps.storageOf('networking.k8s.io', 'servicecidrs');
    const tuning = deps.options.serviceNetwork ?? defaultServiceNetworkOptions;
    const repairDeps = {
      services: new ResourceClient(services, '', 'services'),
      ipAddresses: new ResourceClient(ipAddresses, 'networking.k8s.io', 'ipaddresses'),
      serviceCIDRs: cidrStorage ? new ResourceClient(cidrStorage, 'networking.k8s.io', 'servicecidrs') : undefined,
      ranges: parseServiceClusterIPRanges(deps.options.serviceClusterIPRange),
      recorder: new EventRecorder(deps.storageOf('', 'events'), 'ipallocator-repair-controller', deps.log),
      log: deps.log,
      leakGraceMs: tuning.ipAddressLeakGraceMs ?? 60_000,
    };
    deps.log.info('Starting ipallocator-repair-controller');
    return periodic(() => repairClusterIPs(repairDeps), tuning.repairIntervalMs ?? repairIntervalMs, (err) => deps.log.error(`unable to repair the service IP allocations: ${err.message}`), deps.shutdown);
  },
};

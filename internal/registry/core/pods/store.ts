/**
 * The pods resource (core/v1), stored under /pods/<namespace>/<name>, with pods/status,
 * pods/ephemeralcontainers, pods/resize, pods/binding (and the legacy bindings resource) and
 * pods/eviction, pods/proxy, pods/log, and pods/exec, pods/attach and pods/portforward (to the
 * node's kubelet).
 */
import type { ResourceModule, ResourceRegistration } from '../../registration.js';
import { GenericStore } from '../../generic/store.js';
import { StatusStore } from '../../generic/status-store.js';
import { BindingStorage } from './binding.js';
import { defaultPodObject } from './defaults.js';
import { podEphemeralContainersStrategy } from './ephemeral-containers.js';
import { EvictionStorage } from './eviction.js';
import { PodProxyStorage } from './proxy.js';
import { PodStreamStorage } from './streaming.js';
import { PodLogStorage } from './log.js';
import { podResizeStrategy } from './resize.js';
import { podStatusStrategy, podStrategy } from './strategy.js';
import { dropDisabledPodFields } from './disabled-fields.js';
import { defaultFeatureGates } from '../../../features/gates.js';
import { createLogger } from '../../../observability/logging.js';

/** Builds the pods and bindings registrations. */
export const podsModule: ResourceModule = (deps) => {
  const gates = deps.featureGates ?? defaultFeatureGates;
  // Fields of disabled alpha features are dropped before the strategy sees the object.
  const strategy: typeof podStrategy = {
    ...podStrategy,
    prepareForCreate(ctx, obj) {
      dropDisabledPodFields(obj, undefined, gates);
      podStrategy.prepareForCreate(ctx, obj);
    },
    prepareForUpdate(ctx, obj, old) {
      dropDisabledPodFields(obj, old, gates);
      podStrategy.prepareForUpdate(ctx, obj, old);
    },
  };
  const store = new GenericStore({ group: '', resource: 'pods', kind: 'Pod', keyPrefix: '/pods' }, strategy, deps.storage, {}, deps.storeSettings);
  const status = new StatusStore(store, podStatusStrategy);
  const storageOf = deps.storageOf ?? (() => undefined);
  // Dial failures towards a kubelet are logged as kube-apiserver logs them ("Error while proxying request").
  const streamLog = createLogger(0);
  const registrations: ResourceRegistration[] = [
    {
      group: '',
      version: 'v1',
      resource: 'pods',
      namespaced: true,
      main: store,
      subresources: {
        status,
        // Only spec.ephemeralContainers gets through, so the status store's shape fits.
        ephemeralcontainers: new StatusStore(store, podEphemeralContainersStrategy),
        resize: new StatusStore(store, podResizeStrategy),
        binding: new BindingStorage(store, false),
        eviction: new EvictionStorage(store, status, storageOf),
        proxy: new PodProxyStorage(store, deps.proxyBytesPerSec ?? 0),
        exec: new PodStreamStorage('exec', store, deps.kubeletClient, streamLog),
        attach: new PodStreamStorage('attach', store, deps.kubeletClient, streamLog),
        portforward: new PodStreamStorage('portforward', store, deps.kubeletClient, streamLog),
        log: new PodLogStorage(store, () => deps.kubeletClient),
      },
      selectableFields: podStrategy.selectableFields,
      defaulter: defaultPodObject,
    },
    {
      group: '',
      version: 'v1',
      resource: 'bindings',
      namespaced: true,
      main: new BindingStorage(store, true),
      subresources: {},
      selectableFields: { extra: [], style: 'core' },
    },
  ];
  return registrations;
};

/**
 * Admission plugin factories of this family, by kube's plugin name (see ../registry.ts): the pod
 * and node plugins. Each reads the objects it needs from the shared informers (started here, so
 * they have synced by the time requests arrive) and, where kube does a live lookup, from storage.
 */
import { defaultFeatureGates } from '../../../features/gates.js';
import type { KubeObject } from '../../../../api/meta/types.js';
import { ResourceClient } from '../../../controllers/resource-client.js';
import { defaultTolerationSecondsOptions } from '../../../server/options/default-toleration-seconds.js';
import { AlwaysPullImages } from '../always-pull-images/plugin.js';
import type { AdmissionPluginDeps, AdmissionPluginFactories } from '../deps.js';
import { DefaultTolerationSeconds } from '../default-toleration-seconds/plugin.js';
import { ExtendedResourceToleration } from '../extended-resource-toleration/plugin.js';
import { LimitPodHardAntiAffinityTopology } from '../limit-pod-hard-anti-affinity-topology/plugin.js';
import { LimitRanger } from '../limit-ranger/plugin.js';
import { NodeRestriction } from '../node-restriction/plugin.js';
import { PodNodeSelector, podNodeSelectorConfig } from '../pod-node-selector/plugin.js';
import { cached, liveGetter, NamespaceIndex, waitForReady } from '../pod-shared/lookup.js';
import { PodTolerationRestriction, tolerationRestrictionConfig } from '../pod-toleration-restriction/plugin.js';
import { PodTopologyLabels } from '../pod-topology-labels/plugin.js';
import { Priority } from '../priority/plugin.js';
import { RuntimeClassAdmission } from '../runtime-class/plugin.js';
import { ServiceAccountAdmission } from '../service-account/plugin.js';
import { TaintNodesByCondition } from '../taint-nodes-by-condition/plugin.js';

/** A cached-then-informer read for NodeRestriction: the informer starts on the first node request. */
function informerLookup(deps: AdmissionPluginDeps, resource: string, group = ''): (namespace: string, name: string) => Promise<KubeObject | undefined> {
  return async (namespace, name) => {
    const informer = deps.informers.get(group, resource);
    await waitForReady(informer);
    return cached(informer, namespace, name);
  };
}

export const podsFactories: AdmissionPluginFactories = {
  LimitRanger: (deps) => {
    const storage = deps.storageOf('', 'limitranges');
    if (!storage) throw new Error('missing limitRange storage');
    const client = new ResourceClient(storage, '', 'limitranges');
    return new LimitRanger(new NamespaceIndex(deps.informers.get('', 'limitranges')), (ns) => client.list(ns));
  },
  ServiceAccount: (deps) => new ServiceAccountAdmission(deps.informers.get('', 'serviceaccounts'), liveGetter(deps.storageOf, '', 'serviceaccounts')),
  NodeRestriction: (deps) => {
    const pod = informerLookup(deps, 'pods');
    const node = informerLookup(deps, 'nodes');
    const claim = informerLookup(deps, 'persistentvolumeclaims');
    const volume = informerLookup(deps, 'persistentvolumes');
    const csiDriver = informerLookup(deps, 'csidrivers', 'storage.k8s.io');
    return new NodeRestriction({
      pod,
      node: (name) => node('', name),
      claim,
      volume: (name) => volume('', name),
      csiDriver: (name) => csiDriver('', name),
      authorizer: () => deps.authorizer(),
    });
  },
  TaintNodesByCondition: () => new TaintNodesByCondition(),
  AlwaysPullImages: () => new AlwaysPullImages(),
  PodNodeSelector: (deps, config) =>
    new PodNodeSelector(deps.informers.get('', 'namespaces'), liveGetter(deps.storageOf, '', 'namespaces'), podNodeSelectorConfig(config)),
  Priority: (deps) => new Priority(deps.informers.get('scheduling.k8s.io', 'priorityclasses')),
  DefaultTolerationSeconds: (deps) => {
    const o = deps.options.defaultTolerationSeconds ?? defaultTolerationSecondsOptions;
    return new DefaultTolerationSeconds(o.notReadySeconds, o.unreachableSeconds);
  },
  PodTolerationRestriction: (deps, config) =>
    new PodTolerationRestriction(deps.informers.get('', 'namespaces'), liveGetter(deps.storageOf, '', 'namespaces'), tolerationRestrictionConfig(config)),
  ExtendedResourceToleration: () => new ExtendedResourceToleration(),
  LimitPodHardAntiAffinityTopology: () => new LimitPodHardAntiAffinityTopology(),
  RuntimeClass: (deps) => new RuntimeClassAdmission(deps.informers.get('node.k8s.io', 'runtimeclasses'), liveGetter(deps.storageOf, 'node.k8s.io', 'runtimeclasses')),
  // The PodTopologyLabelsAdmission feature gate (alpha, off by default in kube 1.33).
  PodTopologyLabels: (deps) => new PodTopologyLabels(() => deps.informers.get('', 'nodes'), (deps.options.featureGates ?? defaultFeatureGates).enabled('PodTopologyLabelsAdmission')),
};

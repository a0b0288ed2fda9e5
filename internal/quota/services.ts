/**
 * The services quota evaluator (kube's pkg/quota/v1/evaluator/core/services.go): services,
 * count/services, services.loadbalancers and services.nodeports (a NodePort or LoadBalancer service
 * uses one node port per port, unless a load balancer asks for none, when only ports that name one
 * count). Creates and updates are charged, since a service's type can change.
 */
import type { KubeObject } from '../../api/meta/types.js';
import type { QuotaEvaluator } from './interface.js';
import { count, intersection } from './resource-list.js';

const serviceResources = ['count/services', 'services', 'services.nodeports', 'services.loadbalancers'];

interface ServiceSpecLike {
  type?: string;
  ports?: { nodePort?: number }[];
  allocateLoadBalancerNodePorts?: boolean;
}

/** The service type quota distinguishes (NodePort, LoadBalancer), else "". */
export function quotaServiceType(svc: KubeObject): string {
  const t = (svc as { spec?: ServiceSpecLike }).spec?.type;
  return t === 'NodePort' || t === 'LoadBalancer' ? t : '';
}

/** The services evaluator. */
export function newServiceEvaluator(): QuotaEvaluator {
  return {
    group: '',
    resource: 'services',
    scoped: false,
    handles: (attrs) => attrs.operation === 'CREATE' || attrs.operation === 'UPDATE',
    matchingResources: (input) => intersection(input, serviceResources),
    matchesScope: () => false,
    constraints: () => undefined,
    usage(svc) {
      const spec = (svc as { spec?: ServiceSpecLike }).spec ?? {};
      const ports = spec.ports ?? [];
      let nodePorts = 0;
      let loadBalancers = 0;
      if (spec.type === 'NodePort') nodePorts = ports.length;
      else if (spec.type === 'LoadBalancer') {
        nodePorts = spec.allocateLoadBalancerNodePorts === false ? ports.filter((p) => p.nodePort).length : ports.length;
        loadBalancers = 1;
      }
      return new Map([
        ['count/services', count(1)],
        ['services', count(1)],
        ['services.loadbalancers', count(loadBalancers)],
        ['services.nodeports', count(nodePorts)],
      ]);
    },
  };
}

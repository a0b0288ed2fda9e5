/**
 * core/v1 services: TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE, and wide SELECTOR. The server prints
 * in wide mode, so a load balancer's addresses are never clipped to 16 characters.
 */
import { compareByteOrder } from '../../../selectors/byte-order.js';
import { creationAge } from './ages.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { type Json, intAt, nameOf, objectAt, objectPath, objectsAt, stringAt, stringMapAt, stringsAt } from './json-fields.js';
import { formatLabels } from './labels.js';
import type { TablePrinter } from './types.js';

/** The distinct IPs (or, lacking one, hostnames) of a load balancer status, sorted and comma-joined. */
export function loadBalancerAddresses(loadBalancer: Json | undefined): string {
  const result = new Set<string>();
  for (const ingress of objectsAt(loadBalancer, 'ingress')) {
    const ip = stringAt(ingress, 'ip');
    const hostname = stringAt(ingress, 'hostname');
    if (ip !== '') result.add(ip);
    else if (hostname !== '') result.add(hostname);
  }
  return [...result].sort(compareByteOrder).join(',');
}

function externalIP(service: Json): string {
  const spec = objectAt(service, 'spec');
  const externalIPs = stringsAt(spec, 'externalIPs');
  switch (stringAt(spec, 'type')) {
    case 'ClusterIP':
    case 'NodePort':
      return externalIPs.length > 0 ? externalIPs.join(',') : '<none>';
    case 'LoadBalancer': {
      const lbIPs = loadBalancerAddresses(objectPath(service, 'status', 'loadBalancer'));
      if (externalIPs.length > 0) return [...(lbIPs === '' ? [] : lbIPs.split(',')), ...externalIPs].join(',');
      return lbIPs !== '' ? lbIPs : '<pending>';
    }
    case 'ExternalName':
      return stringAt(spec, 'externalName');
    default:
      return '<unknown>';
  }
}

/** "port/protocol" (or "port:nodePort/protocol") for each service port, comma-joined. */
export function servicePorts(ports: Json[]): string {
  return ports
    .map((p) => {
      const nodePort = intAt(p, 'nodePort');
      const protocol = stringAt(p, 'protocol');
      return nodePort > 0 ? `${intAt(p, 'port')}:${nodePort}/${protocol}` : `${intAt(p, 'port')}/${protocol}`;
    })
    .join(',');
}

/** The first cluster IP: clusterIPs[0], or clusterIP for an object written before dual-stack. */
function clusterIP(spec: Json | undefined): string {
  const ips = stringsAt(spec, 'clusterIPs');
  if (ips.length > 0) return ips[0] as string;
  return stringAt(spec, 'clusterIP') || '<none>';
}

/** core/v1 services. */
export const servicePrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Type', 'string', 'How the service is exposed: ClusterIP, NodePort, LoadBalancer or ExternalName.'),
    column('Cluster-IP', 'string', 'The virtual IP the service answers on inside the cluster.'),
    column('External-IP', 'string', 'Addresses the service answers on from outside the cluster.'),
    column('Port(s)', 'string', 'The ports the service exposes, with their node ports and protocols.'),
    ageColumn,
    column('Selector', 'string', 'Labels of the pods that back the service.', 1),
  ],
  cells(service, now) {
    const spec = objectAt(service, 'spec');
    const ports = servicePorts(objectsAt(spec, 'ports'));
    return [
      nameOf(service),
      stringAt(spec, 'type'),
      clusterIP(spec),
      externalIP(service),
      ports === '' ? '<none>' : ports,
      creationAge(service, now),
      formatLabels(stringMapAt(spec, 'selector')),
    ];
  },
};

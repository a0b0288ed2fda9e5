/**
 * networking.k8s.io/v1 ingresses: CLASS HOSTS ADDRESS PORTS AGE. HOSTS lists the first three
 * rule hosts ("*" when no rule names one), PORTS is "80", or "80, 443" with TLS.
 */
import { creationAge } from './ages.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { type Json, listAt, nameOf, objectAt, objectPath, objectsAt, optionalString, stringAt } from './json-fields.js';
import { loadBalancerAddresses } from './services.js';
import type { TablePrinter } from './types.js';

const shown = 3;

/** kube's formatHosts: hosts of the first three rules that name one, then "+ N more..." over all rules. */
function ingressHosts(rules: Json[]): string {
  const list: string[] = [];
  let more = false;
  for (const rule of rules) {
    if (list.length === shown) more = true;
    const host = stringAt(rule, 'host');
    if (!more && host !== '') list.push(host);
  }
  if (list.length === 0) return '*';
  const joined = list.join(',');
  return more ? `${joined} + ${rules.length - shown} more...` : joined;
}

/** networking.k8s.io/v1 ingresses. */
export const ingressPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Class', 'string', 'The IngressClass that configures this ingress.'),
    column('Hosts', 'string', 'Host names the rules of the ingress match.'),
    column('Address', 'string', 'Addresses of the load balancer that serves the ingress.'),
    column('Ports', 'string', 'Ports the ingress is served on: 80, and 443 when TLS is set.'),
    ageColumn,
  ],
  cells(ingress, now) {
    const spec = objectAt(ingress, 'spec');
    return [
      nameOf(ingress),
      optionalString(spec, 'ingressClassName') ?? '<none>',
      ingressHosts(objectsAt(spec, 'rules')),
      loadBalancerAddresses(objectPath(ingress, 'status', 'loadBalancer')),
      listAt(spec, 'tls').length > 0 ? '80, 443' : '80',
      creationAge(ingress, now),
    ];
  },
};

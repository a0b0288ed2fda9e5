/**
 * core/v1 endpoints (ENDPOINTS) and discovery.k8s.io endpointslices (ADDRESSTYPE PORTS
 * ENDPOINTS): the first three entries, then "+ N more...".
 */
import { creationAge } from './ages.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { type Json, intAt, listAt, nameOf, objectsAt, stringAt } from './json-fields.js';
import type { TablePrinter } from './types.js';

const shown = 3;

/** net.JoinHostPort: an IPv6 host is bracketed. */
function joinHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** kube's formatEndpoints (all ports): "ip:port" per address and port, "<none>" without subsets. */
export function formatEndpoints(endpoints: Json): string {
  const subsets = objectsAt(endpoints, 'subsets');
  if (subsets.length === 0) return '<none>';
  const list: string[] = [];
  let more = false;
  let count = 0;
  for (const subset of subsets) {
    const addresses = objectsAt(subset, 'addresses');
    const ports = objectsAt(subset, 'ports');
    // A headless service may have no ports: the bare IPs are listed then.
    const entries: Array<number | undefined> = ports.length === 0 ? [undefined] : ports.map((p) => intAt(p, 'port'));
    for (const port of entries) {
      count += addresses.length;
      for (const address of addresses) {
        if (list.length === shown) {
          more = true;
          break;
        }
        const ip = stringAt(address, 'ip');
        list.push(port === undefined ? ip : joinHostPort(ip, port));
      }
    }
  }
  const joined = list.join(',');
  return more ? `${joined} + ${count - shown} more...` : joined;
}

/** kube's listWithMoreString: the first entries, "+ N more...", or "<unset>" for none. */
function listWithMore(items: string[]): string {
  const joined = items.slice(0, shown).join(',');
  if (items.length > shown) return `${joined} + ${items.length - shown} more...`;
  return joined === '' ? '<unset>' : joined;
}

/** Each slice port's number, else its name, else "*". */
function slicePorts(slice: Json): string {
  return listWithMore(
    objectsAt(slice, 'ports').map((p) => {
      if (typeof p.port === 'number') return String(Math.trunc(p.port));
      if (typeof p.name === 'string') return p.name;
      return '*';
    }),
  );
}

function sliceEndpoints(slice: Json): string {
  return listWithMore(objectsAt(slice, 'endpoints').flatMap((e) => listAt(e, 'addresses').map((a) => (typeof a === 'string' ? a : ''))));
}

/** core/v1 endpoints. */
export const endpointsPrinter: TablePrinter = {
  columns: [nameColumn, column('Endpoints', 'string', 'Addresses and ports of the endpoints, the first three of them.'), ageColumn],
  cells(endpoints, now) {
    return [nameOf(endpoints), formatEndpoints(endpoints), creationAge(endpoints, now)];
  },
};

/** discovery.k8s.io endpointslices. */
export const endpointSlicePrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('AddressType', 'string', 'The kind of addresses the slice holds: IPv4, IPv6 or FQDN.'),
    column('Ports', 'string', 'The ports of the slice, the first three of them.'),
    column('Endpoints', 'string', 'Addresses of the endpoints in the slice, the first three of them.'),
    ageColumn,
  ],
  cells(slice, now) {
    return [nameOf(slice), stringAt(slice, 'addressType'), slicePorts(slice), sliceEndpoints(slice), creationAge(slice, now)];
  },
};

/** coordination.k8s.io/v1 leases: HOLDER AGE. */
import { creationAge } from './ages.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { nameOf, objectAt, stringAt } from './json-fields.js';
import type { TablePrinter } from './types.js';

/** coordination.k8s.io leases. */
export const leasePrinter: TablePrinter = {
  columns: [nameColumn, column('Holder', 'string', 'The identity that holds the lease now.'), ageColumn],
  cells(lease, now) {
    return [nameOf(lease), stringAt(objectAt(lease, 'spec'), 'holderIdentity'), creationAge(lease, now)];
  },
};

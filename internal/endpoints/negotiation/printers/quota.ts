/**
 * core/v1 resourcequotas as kube prints them: NAME, AGE, then REQUEST and LIMIT, each a list of
 * "<resource>: <used>/<hard>" over status.hard sorted by name, limits.* names under LIMIT.
 */
import { creationAge } from './ages.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { nameOf, objectAt, stringMapAt } from './json-fields.js';
import type { TablePrinter } from './types.js';

/** core/v1 resourcequotas. */
export const resourceQuotaPrinter: TablePrinter = {
  columns: [
    nameColumn,
    ageColumn,
    column('Request', 'string', 'Used and hard amounts of the quota resources other than limits.*.'),
    column('Limit', 'string', 'Used and hard amounts of the limits.* quota resources.'),
  ],
  cells(quota, now) {
    const status = objectAt(quota, 'status');
    const hard = stringMapAt(status, 'hard');
    const used = stringMapAt(status, 'used');
    const request: string[] = [];
    const limit: string[] = [];
    for (const name of Object.keys(hard).sort()) {
      const parts = name.split('.');
      (parts.length > 1 && parts[0] === 'limits' ? limit : request).push(`${name}: ${used[name] ?? '0'}/${hard[name]}`);
    }
    return [nameOf(quota), creationAge(quota, now), request.join(', '), limit.join(', ')];
  },
};

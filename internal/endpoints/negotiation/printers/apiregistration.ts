/**
 * apiregistration.k8s.io apiservices (NAME SERVICE AVAILABLE AGE), as kube-aggregator's registry
 * prints them: the service as "<namespace>/<name>" or "Local", and the Available condition's
 * status, with its reason in parentheses when it is not True ("Unknown" without the condition).
 */
import { creationAge } from './ages.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { nameOf, objectAt, objectsAt, stringAt } from './json-fields.js';
import type { TablePrinter } from './types.js';

/** apiregistration.k8s.io/v1 apiservices. */
export const apiServicePrinter: TablePrinter = {
  columns: [nameColumn, column('Service', 'string', 'The service that serves this API, or Local for this server.'), column('Available', 'string', 'Whether this API is available.'), ageColumn],
  cells(api, now) {
    const service = objectAt(objectAt(api, 'spec'), 'service');
    const available = objectsAt(objectAt(api, 'status'), 'conditions').find((c) => c.type === 'Available');
    const status = stringAt(available, 'status');
    const availableText = !available ? 'Unknown' : status === 'True' ? 'True' : `${status} (${stringAt(available, 'reason')})`;
    return [nameOf(api), service ? `${stringAt(service, 'namespace')}/${stringAt(service, 'name')}` : 'Local', availableText, creationAge(api, now)];
  },
};

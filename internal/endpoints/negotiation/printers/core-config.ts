/**
 * The small core/v1 kinds: namespaces (STATUS), configmaps (DATA), secrets (TYPE DATA) and
 * serviceaccounts (SECRETS).
 */
import { creationAge } from './ages.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { listAt, mapSize, nameOf, objectAt, stringAt } from './json-fields.js';
import type { TablePrinter } from './types.js';

/** core/v1 namespaces. */
export const namespacePrinter: TablePrinter = {
  columns: [nameColumn, column('Status', 'string', 'The phase of the namespace: Active or Terminating.'), ageColumn],
  cells(ns, now) {
    return [nameOf(ns), stringAt(objectAt(ns, 'status'), 'phase'), creationAge(ns, now)];
  },
};

/** core/v1 configmaps: DATA counts the keys of data and binaryData. */
export const configMapPrinter: TablePrinter = {
  columns: [nameColumn, column('Data', 'string', 'The number of keys in data and binaryData.'), ageColumn],
  cells(cm, now) {
    return [nameOf(cm), mapSize(cm, 'data') + mapSize(cm, 'binaryData'), creationAge(cm, now)];
  },
};

/** core/v1 secrets. */
export const secretPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Type', 'string', 'The type of the secret, which says what keys its data holds.'),
    column('Data', 'string', 'The number of keys in data.'),
    ageColumn,
  ],
  cells(secret, now) {
    return [nameOf(secret), stringAt(secret, 'type'), mapSize(secret, 'data'), creationAge(secret, now)];
  },
};

/** core/v1 serviceaccounts. */
export const serviceAccountPrinter: TablePrinter = {
  columns: [nameColumn, column('Secrets', 'string', 'The number of secrets the service account lists.'), ageColumn],
  cells(sa, now) {
    return [nameOf(sa), listAt(sa, 'secrets').length, creationAge(sa, now)];
  },
};

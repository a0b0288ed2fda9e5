/**
 * Column definitions shared by many printers (Name, Age, and the wide Containers/Images/Selector
 * trio of the workload kinds), and a builder for the rest. kube's names, types, formats and
 * priorities are part of the wire format; the descriptions are Capstan's own words.
 */
import type { TableColumn } from './types.js';

/** A column; format defaults to '' and priority to 0 (always shown). */
export function column(name: string, type: string, description: string, priority = 0, format = ''): TableColumn {
  return { name, type, format, description, priority };
}

/** The Name column every printer starts with. */
export const nameColumn: TableColumn = column(
  'Name',
  'string',
  'Name of the object, unique among objects of its kind in its namespace (or in the cluster for cluster-scoped kinds).',
  0,
  'name',
);

/** The Age column: time since metadata.creationTimestamp. */
export const ageColumn: TableColumn = column('Age', 'string', 'How long ago the server created the object.');

/** Wide column: the names of the pod template's containers. */
export const containersColumn: TableColumn = column('Containers', 'string', 'Names of the containers in the pod template.', 1);

/** Wide column: the images of the pod template's containers. */
export const imagesColumn: TableColumn = column('Images', 'string', 'Container images the pod template runs.', 1);

/** Wide column: the label selector of a workload. */
export function selectorColumn(description = 'Label selector that picks the pods this object manages.'): TableColumn {
  return column('Selector', 'string', description, 1);
}

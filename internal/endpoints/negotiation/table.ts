/**
 * Server-side Table output (meta.k8s.io Table): the resource's printer columns (printers/), or the
 * default two columns kube-apiserver gives every resource without its own printer, Name and
 * Created At, with rows carrying the object as includeObject asks (None, Metadata as
 * PartialObjectMetadata by default, or the whole Object).
 */
import type { KubeObject, ListMeta } from '../../../api/meta/types.js';
import { newBadRequest } from '../../apierrors/factories.js';
import { printerFor } from './printers/index.js';
import type { TableColumn, TablePrinter } from './printers/types.js';

export type { TableColumn } from './printers/types.js';

/** includeObject query values. */
export type IncludeObject = 'None' | 'Metadata' | 'Object';

/** The default columns (kube's default table convertor). */
export const defaultColumns: readonly TableColumn[] = [
  {
    name: 'Name',
    type: 'string',
    format: 'name',
    description: 'The name of the object, unique within its namespace (or the cluster for cluster-scoped resources).',
    priority: 0,
  },
  {
    name: 'Created At',
    type: 'date',
    format: '',
    description: 'When the server created the object, in RFC 3339 form (UTC).',
    priority: 0,
  },
];

/** Parses ?includeObject=; the empty value means Metadata. */
export function parseIncludeObject(value: string | null): IncludeObject {
  if (value === null || value === '' || value === 'Metadata') return 'Metadata';
  if (value === 'None' || value === 'Object') return value;
  throw newBadRequest(`Unsupported value: "${value}": supported values: "Metadata", "None", "Object"`);
}

function rowObject(obj: KubeObject, include: IncludeObject, tableVersion: string): KubeObject | undefined {
  if (include === 'None') return undefined;
  if (include === 'Object') return obj;
  return { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${tableVersion}`, metadata: obj.metadata };
}

/** Options of one Table conversion. */
export interface TableOptions {
  readonly include: IncludeObject;
  readonly tableVersion: 'v1' | 'v1beta1';
  /** Leave out columnDefinitions (watch events after the first). */
  readonly noHeaders?: boolean;
  /** The endpoint's group, version and resource; absent (a subresource other than status): default columns. */
  readonly resource?: { readonly group: string; readonly version: string; readonly resource: string };
  /** What ages are measured against; the time of the call by default. */
  readonly now?: Date;
  /** The endpoint's own printer (custom resources), used instead of the built-in one of resource. */
  readonly printer?: TablePrinter;
}

/** Builds the Table for objects (a list when listMeta is given, else one object). */
export function toTable(objects: readonly KubeObject[], listMeta: ListMeta | undefined, opts: TableOptions): Record<string, unknown> {
  const metadata: ListMeta = {};
  if (listMeta) {
    if (listMeta.resourceVersion) metadata.resourceVersion = listMeta.resourceVersion;
    if (listMeta.continue) metadata.continue = listMeta.continue;
    if (listMeta.remainingItemCount !== undefined) metadata.remainingItemCount = listMeta.remainingItemCount;
  } else if (objects[0]?.metadata.resourceVersion) {
    metadata.resourceVersion = objects[0].metadata.resourceVersion;
  }
  const printer = opts.printer ?? (opts.resource ? printerFor(opts.resource.group, opts.resource.version, opts.resource.resource) : undefined);
  const now = opts.now ?? new Date();
  const rows = objects.map((o) => {
    const object = rowObject(o, opts.include, opts.tableVersion);
    const cells = printer ? printer.cells(o as Record<string, unknown>, now) : [o.metadata.name ?? '', o.metadata.creationTimestamp ?? null];
    const conditions = printer?.rowConditions?.(o as Record<string, unknown>);
    return { cells, ...(conditions ? { conditions } : {}), ...(object ? { object } : {}) };
  });
  return {
    kind: 'Table',
    apiVersion: `meta.k8s.io/${opts.tableVersion}`,
    metadata,
    columnDefinitions: opts.noHeaders ? null : (printer?.columns ?? defaultColumns),
    rows,
  };
}

/**
 * The Table printer of a custom resource version (kube's apiextensions tableconvertor): a Name
 * column, then the version's additionalPrinterColumns (or kube's default Age column when it has
 * none), each cell read with its compiled JSONPath and typed by the column's type.
 */
import { parseTimestamp, humanDuration } from '../../endpoints/negotiation/printers/ages.js';
import type { TableColumn, TablePrinter } from '../../endpoints/negotiation/printers/types.js';
import type { CrdColumn } from './crd.js';
import { compileJsonPath, printJsonValue, type CompiledJsonPath } from './jsonpath.js';

/** metav1.ObjectMeta's name description, as kube's tableconvertor describes its Name column. */
const nameDescription =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of a name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';

/** metav1.ObjectMeta's creationTimestamp description (kube's default Age column). */
const creationTimestampDescription =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

/** kube's serveDefaultColumnsIfEmpty: a version without columns prints Age. */
export function columnsOrDefault(columns: readonly CrdColumn[]): readonly CrdColumn[] {
  if (columns.length > 0) return columns;
  return [{ name: 'Age', type: 'date', description: creationTimestampDescription, jsonPath: '.metadata.creationTimestamp' }];
}

/** A cell of a non-string column from a JSON value (kube's cellForJSONValue); null when it does not fit. */
function typedCell(type: string, value: unknown, now: Date): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date': {
      if (typeof value !== 'string') return null;
      const t = parseTimestamp(value);
      if (t === undefined) return '<invalid>';
      return humanDuration(now.getTime() - t);
    }
    default:
      return null;
  }
}

/** Builds the printer of one version; throws JsonPathError for a path that does not parse. */
export function customResourcePrinter(crdColumns: readonly CrdColumn[]): TablePrinter {
  const defs = columnsOrDefault(crdColumns);
  const paths: CompiledJsonPath[] = defs.map((c) => compileJsonPath(c.jsonPath));
  const columns: TableColumn[] = [
    { name: 'Name', type: 'string', format: 'name', description: nameDescription, priority: 0 },
    ...defs.map((c) => ({
      name: c.name,
      type: c.type,
      format: c.format ?? '',
      description: c.description || `Custom resource definition column (in JSONPath format): ${c.jsonPath}`,
      priority: c.priority ?? 0,
    })),
  ];
  return {
    columns,
    cells(obj, now) {
      const meta = obj.metadata as { name?: unknown } | undefined;
      const cells: unknown[] = [typeof meta?.name === 'string' ? meta.name : ''];
      for (let i = 0; i < defs.length; i++) {
        const results = (paths[i] as CompiledJsonPath).find(obj);
        if (results.length === 0) {
          cells.push(null);
          continue;
        }
        const value = results[0];
        const type = (defs[i] as CrdColumn).type;
        cells.push(type === 'string' ? printJsonValue(value) : typedCell(type, value, now));
      }
      return cells;
    },
  };
}

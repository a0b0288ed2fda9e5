/**
 * omitManagedFields (kube's copyWithoutManagedFields): the request or response object as audit
 * records it without metadata.managedFields, on the object itself, on each item of a list and on
 * each row object of a Table. The input is never changed: what is copied is only the path down
 * to each metadata, the rest is shared.
 */

type Obj = Record<string, unknown>;

function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function withoutOwn(obj: Obj): Obj {
  const meta = obj.metadata;
  if (!isObject(meta) || !('managedFields' in meta)) return obj;
  const { managedFields: _dropped, ...rest } = meta;
  return { ...obj, metadata: rest };
}

/** obj without managedFields (itself, list items, Table rows); obj itself when there are none. */
export function withoutManagedFields(obj: unknown): unknown {
  if (!isObject(obj)) return obj;
  let out = withoutOwn(obj);
  if (Array.isArray(obj.items)) {
    const items = obj.items.map((item) => (isObject(item) ? withoutOwn(item) : item));
    if (items.some((item, i) => item !== (obj.items as unknown[])[i])) out = { ...out, items };
  }
  if (obj.kind === 'Table' && Array.isArray(obj.rows)) {
    const rows = obj.rows.map((row) => {
      if (!isObject(row) || !isObject(row.object)) return row;
      const object = withoutOwn(row.object);
      return object === row.object ? row : { ...row, object };
    });
    if (rows.some((row, i) => row !== (obj.rows as unknown[])[i])) out = { ...out, rows };
  }
  return out;
}

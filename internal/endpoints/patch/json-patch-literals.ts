/**
 * Where a JSON patch's number texts end up in its result. evanphx/json-patch keeps each value of
 * the patch as the text the client wrote, so `{"op":"replace","path":"/spec/replicas","value":1e3}`
 * hands `1e3` to kube's decoder, which refuses it in an integer field whatever its value. The parsed
 * patch knows its numbers written with a fraction or an exponent by path (`[0].value`,
 * `[2].value.spec.replicas`); this follows the operations in order to say at which paths of the
 * result they sit (StrictJson's path form: keys joined with dots, indexes in brackets). Array
 * indexes are read against the result, so an operation that shifts an array under another's number
 * may misplace that one number; nothing else depends on it.
 */
import type { Operation } from 'fast-json-patch';

function unescapeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The result path a JSON pointer names, reading array indexes against doc. */
function pointerPath(pointer: unknown, doc: unknown): string | undefined {
  if (typeof pointer !== 'string' || (pointer !== '' && !pointer.startsWith('/'))) return undefined;
  if (pointer === '') return '';
  let path = '';
  let cur: unknown = doc;
  for (const raw of pointer.slice(1).split('/')) {
    const token = unescapeToken(raw);
    if (Array.isArray(cur)) {
      const idx = token === '-' ? cur.length - 1 : Number(token);
      if (!Number.isInteger(idx) || idx < 0) return undefined;
      path += `[${idx}]`;
      cur = cur[idx];
    } else {
      path = path === '' ? token : `${path}.${token}`;
      cur = cur !== null && typeof cur === 'object' ? (cur as Record<string, unknown>)[token] : undefined;
    }
  }
  return path;
}

function under(key: string, path: string): boolean {
  if (path === '') return true;
  return key === path || key.startsWith(`${path}.`) || key.startsWith(`${path}[`);
}

function join(path: string, suffix: string): string {
  if (suffix === '') return path;
  if (path === '') return suffix.startsWith('.') ? suffix.slice(1) : suffix;
  return path + suffix;
}

/** The result paths of the patch's number texts, or undefined when none reaches the result. */
export function jsonPatchResultLiterals(ops: readonly Operation[], literals: ReadonlyMap<string, string>, result: unknown): ReadonlyMap<string, string> | undefined {
  const out = new Map<string, string>();
  const clear = (path: string): void => {
    for (const key of [...out.keys()]) if (under(key, path)) out.delete(key);
  };
  const move = (from: string, to: string, keep: boolean): void => {
    const moved = [...out].filter(([key]) => under(key, from));
    if (!keep) clear(from);
    clear(to);
    for (const [key, text] of moved) out.set(join(to, key.slice(from.length)), text);
  };
  ops.forEach((op, i) => {
    const o = op as unknown as Record<string, unknown>;
    const path = pointerPath(o.path, result);
    if (path === undefined) return;
    switch (o.op) {
      case 'add':
      case 'replace': {
        clear(path);
        const prefix = `[${i}].value`;
        for (const [key, text] of literals) if (under(key, prefix)) out.set(join(path, key.slice(prefix.length)), text);
        break;
      }
      case 'remove':
        clear(path);
        break;
      case 'move':
      case 'copy': {
        const from = pointerPath(o.from, result);
        if (from !== undefined) move(from, path, o.op === 'copy');
        break;
      }
      default:
        break;
    }
  });
  return out.size > 0 ? out : undefined;
}

/**
 * Flag values as kube-apiserver's pflag reads them: Go durations, Go bools, integers, and the
 * error every invalid value is refused with. Used by flags.ts and every flag group.
 */
import { parseGoDuration } from './duration.js';

/** A flag error in kube's style. */
export class FlagError extends Error {}

export function durationFlag(name: string, value: unknown): number {
  try {
    return parseGoDuration(String(value));
  } catch (err) {
    throw new FlagError(`invalid argument ${JSON.stringify(String(value))} for "--${name}" flag: ${(err as Error).message}`);
  }
}

/** A Go bool flag: a bare --flag is true; otherwise strconv.ParseBool's spellings. */
export function boolFlag(name: string, value: unknown): boolean {
  const s = String(value);
  if (s === '' || ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(s)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(s)) return false;
  throw new FlagError(`invalid argument ${JSON.stringify(s)} for "--${name}" flag: strconv.ParseBool: parsing ${JSON.stringify(s)}: invalid syntax`);
}

/** --watch-cache-sizes: "resource[.group]#size" entries, as kube's ParseWatchCacheSizes reads them. */
export function watchCacheSizesFlag(value: unknown): Map<string, number> {
  const out = new Map<string, number>();
  const text = value === undefined ? '' : String(value);
  for (const c of text.split(',').map((x) => x.trim()).filter((x) => x.length > 0)) {
    const tokens = c.split('#');
    if (tokens.length !== 2) throw new FlagError(`invalid value of watch cache size: ${c}`);
    const sizeText = tokens[1] as string;
    if (!/^[+-]?[0-9]+$/.test(sizeText)) throw new FlagError(`invalid size of watch cache size: ${c}`);
    const size = Number(sizeText);
    if (size < 0) throw new FlagError(`watch cache size cannot be negative: ${c}`);
    out.set(tokens[0] as string, size);
  }
  return out;
}

export function intFlag(name: string, value: unknown): number {
  const s = String(value);
  if (!/^[+-]?[0-9]+$/.test(s)) throw new FlagError(`invalid argument ${JSON.stringify(s)} for "--${name}" flag: strconv.ParseInt: parsing ${JSON.stringify(s)}: invalid syntax`);
  return Number(s);
}


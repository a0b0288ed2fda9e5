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
/**
 * A Go bool flag's value: a bare --flag is true; otherwise strconv.ParseBool's spellings; not
 * given at all is defaultValue. Register bool flags WITHOUT a yargs default (use
 * defaultDescription for the help): yargs hands a bare flag its default instead of "", so a
 * bare --flag whose default is false would read as false.
 */
export function boolFlag(name: string, value: unknown, defaultValue = false): boolean {
  if (value === undefined) return defaultValue;
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


/**
 * Every value a repeatable flag was given on the command line, in order ("--name value" and
 * "--name=value"), or undefined when it was not given: yargs keeps only the last, while pflag's
 * slice and array flags append each occurrence. Stops at "--".
 */
export function repeatedValues(argv: readonly string[], name: string): string[] | undefined {
  const out: string[] = [];
  const flag = `--${name}`;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--') break;
    if (a === flag && i + 1 < argv.length) out.push(argv[++i] as string);
    else if (a.startsWith(`${flag}=`)) out.push(a.slice(flag.length + 1));
  }
  return out.length > 0 ? out : undefined;
}

/** One value of a pflag string slice: comma-separated fields, with Go's CSV quoting ("" is an empty list). */
function csvFields(name: string, value: string): string[] {
  if (value === '') return [];
  const out: string[] = [];
  let i = 0;
  for (;;) {
    let field = '';
    if (value[i] === '"') {
      i++;
      for (;;) {
        if (i >= value.length) throw new FlagError(`invalid argument ${JSON.stringify(value)} for "--${name}" flag: parse error on line 1, column ${i + 1}: extraneous or missing " in quoted-field`);
        if (value[i] === '"') {
          if (value[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += value[i++];
      }
      if (i < value.length && value[i] !== ',') throw new FlagError(`invalid argument ${JSON.stringify(value)} for "--${name}" flag: parse error on line 1, column ${i + 1}: extraneous or missing " in quoted-field`);
    } else {
      const end = value.indexOf(',', i);
      field = end < 0 ? value.slice(i) : value.slice(i, end);
      const quote = field.indexOf('"');
      if (quote >= 0) throw new FlagError(`invalid argument ${JSON.stringify(value)} for "--${name}" flag: parse error on line 1, column ${i + quote + 1}: bare " in non-quoted-field`);
      i += field.length;
    }
    out.push(field);
    if (i >= value.length) return out;
    i++; // the comma
  }
}

/**
 * A pflag StringSlice flag: each occurrence (a string, or every occurrence from repeatedValues)
 * read as comma-separated fields and appended; absent is an empty list.
 */
export function stringSliceFlag(name: string, value: unknown): string[] {
  if (value === undefined || value === null) return [];
  const occurrences = Array.isArray(value) ? value.map(String) : [String(value)];
  return occurrences.flatMap((v) => csvFields(name, v));
}

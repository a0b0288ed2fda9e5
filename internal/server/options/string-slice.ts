/**
 * String-slice flags as pflag's StringSlice reads them: the value is one CSV record, so
 * `--requestheader-group-headers=X-Remote-Group,"X-A,B"` is two names and an empty value is an
 * empty list. (The parser keeps the last of a repeated flag, where pflag appends.)
 */
import { FlagError } from './flag-values.js';
import { GoCsvError, readGoCsv } from './go-csv.js';

/** The list a string-slice flag holds; undefined or "" is empty. Throws FlagError as pflag words it. */
export function stringSliceFlag(name: string, value: unknown): string[] {
  if (value === undefined || value === '') return [];
  const text = String(value);
  try {
    return readGoCsv(text)[0] ?? [];
  } catch (err) {
    if (!(err instanceof GoCsvError)) throw err;
    throw new FlagError(`invalid argument ${JSON.stringify(text)} for "--${name}" flag: ${err.message}`);
  }
}

/**
 * kube's query parameter conversions (apimachinery runtime.Convert_Slice_string_To_*), used when it
 * decodes ListOptions, DeleteOptions and the like from a URL: the first value of a parameter
 * counts, and a parameter that is absent leaves the option unset.
 */

/**
 * Convert_Slice_string_To_bool: only "0" and "false" (any case, as strings.EqualFold: U+017F folds
 * to s) are false; any other value, the empty one included, is true; undefined when absent.
 */
export function queryBool(value: string | null | undefined): boolean | undefined {
  if (value === null || value === undefined) return undefined;
  return !(value === '0' || /^[fF][aA][lL][sS\u017f][eE]$/u.test(value));
}

/** Why a value is not an int64, as strconv.ParseInt says it, or undefined for a valid one. */
export function parseInt64Error(value: string): string | undefined {
  if (!/^[+-]?[0-9]+$/.test(value)) return `strconv.ParseInt: parsing ${JSON.stringify(value)}: invalid syntax`;
  const n = BigInt(value);
  if (n > 9223372036854775807n || n < -9223372036854775808n) return `strconv.ParseInt: parsing ${JSON.stringify(value)}: value out of range`;
  return undefined;
}

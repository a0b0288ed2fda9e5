/**
 * YAML bodies that are JSON: client-go and kubectl send server-side apply configurations as JSON
 * under application/apply-patch+yaml. For a JSON document whose every scalar reads alike in JSON
 * and in YAML 1.1 (double-quoted strings without escapes or line-break characters, integers of at
 * most 15 digits, true, false, null) and whose keys are unique, JSON.parse gives the value the YAML
 * parser would, in a fraction of the time and without the second pass that looks for repeated
 * keys. Anything else answers undefined, and the caller parses it as YAML.
 */

import { countKeys } from './strict-json.js';

// Characters YAML reads otherwise than JSON (escapes, tabs, line breaks such as NEL and LS/PS,
// non-printables, a byte-order mark), merge keys and keys JSON.parse and YAML store differently.
const unsafe = /[\\\t\r\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]|<<|__proto__/;
// A string token, and the colon that makes it a mapping key.
const stringToken = /"[^"]*"([ \n]*:)?/g;
const literals = /true|false|null/g;
const structure = /^[ \n{}[\]:,0-9-]*$/;
// Negative zero and integers past 2^53 are where the two parsers' numbers could part.
const oddNumber = /-0(?!\d)|\d{16}/;
// YAML's limit on an implicit key's length (1024 characters), with room to spare.
const maxKeyLength = 1000;

/** The value of text read as YAML 1.1 when text is plain JSON without repeated keys; otherwise undefined. */
export function parseJsonAsYaml(text: string): { value: unknown } | undefined {
  let start = 0;
  while (text.charCodeAt(start) === 0x20 || text.charCodeAt(start) === 0x0a) start++;
  if (text.charCodeAt(start) !== 0x7b || unsafe.test(text)) return undefined;
  let keys = 0;
  let longKey = false;
  const rest = text
    .replace(stringToken, (m: string, colon: string | undefined) => {
      if (colon !== undefined) {
        keys++;
        if (m.length - colon.length > maxKeyLength) longKey = true;
      }
      return '';
    })
    .replace(literals, '');
  if (longKey || !structure.test(rest) || oddNumber.test(rest)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  // Fewer keys in the value than in the text: some key was repeated.
  return countKeys(value) === keys ? { value } : undefined;
}

/**
 * Field selectors with kube's semantics (k8s.io/apimachinery v0.33 pkg/fields): `a=b,c!=d`
 * with `\`, `,` and `=` backslash-escaped in values. Selectors are immutable; matches() is
 * allocation-free. A field that is absent reads as the empty string, as in kube.
 */
import { compareByteOrder } from './byte-order.js';
import { SelectorParseError } from './selector-parse-error.js';

export { SelectorParseError } from './selector-parse-error.js';

/** One term: field equals (`=`, also written `==`) or differs from (`!=`) the unescaped value. */
export interface FieldTerm {
  readonly field: string;
  readonly operator: '=' | '!=';
  readonly value: string;
}

/** A parsed field selector: the AND of its terms. Immutable and safe to share. */
export interface FieldSelector {
  readonly terms: readonly FieldTerm[];
  /** True when no term restricts anything (selects everything). */
  empty(): boolean;
  /** Whether an object with these field values is selected. Allocation-free. */
  matches(fields: Readonly<Record<string, string>>): boolean;
  /** kube's String(): terms joined by ',', values escaped, `==` written as `=`. */
  toString(): string;
  /** The value an `=` term requires for field (the first such term), if any. */
  requiresExactMatch(field: string): string | undefined;
  /**
   * Selector.Transform: a new selector with fn applied to every term; a term mapped to an empty
   * field and value is dropped. fn may throw; the error propagates.
   */
  transform(fn: (field: string, value: string) => [string, string]): FieldSelector;
}

class TermsSelector implements FieldSelector {
  readonly terms: readonly FieldTerm[];
  private text: string | undefined;

  constructor(terms: readonly FieldTerm[]) {
    this.terms = Object.freeze([...terms]);
  }

  empty(): boolean {
    return this.terms.length === 0;
  }

  matches(fields: Readonly<Record<string, string>>): boolean {
    const terms = this.terms;
    for (let i = 0; i < terms.length; i++) {
      const t = terms[i] as FieldTerm;
      const actual = Object.hasOwn(fields, t.field) ? fields[t.field] : '';
      if ((actual === t.value) !== (t.operator === '=')) return false;
    }
    return true;
  }

  toString(): string {
    this.text ??= this.terms.map((t) => `${t.field}${t.operator}${escapeFieldValue(t.value)}`).join(',');
    return this.text;
  }

  requiresExactMatch(field: string): string | undefined {
    for (const t of this.terms) if (t.operator === '=' && t.field === field) return t.value;
    return undefined;
  }

  transform(fn: (field: string, value: string) => [string, string]): FieldSelector {
    return new TermsSelector(transformTerms(this.terms, fn));
  }
}

function transformTerms(terms: readonly FieldTerm[], fn: (field: string, value: string) => [string, string]): FieldTerm[] {
  const out: FieldTerm[] = [];
  for (const t of terms) {
    const [field, value] = fn(t.field, t.value);
    // kube turns such a term into Everything(), which an AND then drops.
    if (field === '' && value === '') continue;
    out.push({ field, operator: t.operator, value });
  }
  return out;
}

/** fields.Everything(): selects every object. */
export const everythingFields: FieldSelector = new TermsSelector([]);

const specialChar = /[\\,=]/;
const specialChars = /[\\,=]/g;

/** fields.EscapeValue: backslash-escapes `\`, `,` and `=` so a value can sit in a selector string. */
export function escapeFieldValue(v: string): string {
  return specialChar.test(v) ? v.replace(specialChars, (c) => `\\${c}`) : v;
}

/**
 * fields.UnescapeValue: reverses escapeFieldValue. Throws SelectorParseError with kube's text on
 * an unknown escape, a trailing lone backslash, or an unescaped `,` or `=`.
 */
export function unescapeFieldValue(v: string): string {
  if (!specialChar.test(v)) return v;
  let out = '';
  let inSlash = false;
  for (const c of v) {
    if (inSlash) {
      if (c !== '\\' && c !== ',' && c !== '=') {
        throw new SelectorParseError(`invalid field selector: invalid escape sequence: \\${c}`);
      }
      out += c;
      inSlash = false;
    } else if (c === '\\') {
      inSlash = true;
    } else if (c === ',' || c === '=') {
      // Go prints the rune with %v, i.e. as its code point number.
      throw new SelectorParseError(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    } else {
      out += c;
    }
  }
  if (inSlash) throw new SelectorParseError('invalid field selector: invalid escape sequence: \\');
  return out;
}

/** splitTerms: splits on commas not preceded by an escaping backslash; escapes are kept. '' gives []. */
export function splitFieldSelectorTerms(selector: string): string[] {
  if (selector.length === 0) return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < selector.length; i++) {
    const c = selector.charCodeAt(i);
    if (inSlash) inSlash = false;
    else if (c === 0x5c) inSlash = true;
    else if (c === 0x2c) {
      terms.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(selector.slice(start));
  return terms;
}

const termOperators = ['!=', '==', '='] as const;

/**
 * splitTerm: splits a term at the first `!=`, `==` or `=` (no escaping on the left side);
 * the right side is returned still escaped. Undefined when there is no operator.
 */
export function splitFieldSelectorTerm(term: string): { lhs: string; op: '!=' | '==' | '='; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of termOperators) {
      if (term.startsWith(op, i)) return { lhs: term.slice(0, i), op, rhs: term.slice(i + op.length) };
    }
  }
  return undefined;
}

/**
 * fields.ParseAndTransformSelector: parses, then applies fn to each term (see transform()).
 * Terms are ordered by their raw text; errors are kube's texts as SelectorParseError.
 */
export function parseAndTransformFieldSelector(
  input: string,
  fn: (field: string, value: string) => [string, string],
): FieldSelector {
  const parts = splitFieldSelectorTerms(input).sort(compareByteOrder);
  const terms: FieldTerm[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const split = splitFieldSelectorTerm(part);
    if (split === undefined) throw new SelectorParseError(`invalid selector: '${input}'; can't understand '${part}'`);
    terms.push({ field: split.lhs, operator: split.op === '!=' ? '!=' : '=', value: unescapeFieldValue(split.rhs) });
  }
  return new TermsSelector(transformTerms(terms, fn));
}

/** fields.ParseSelector: parses `a=b,c!=d`; throws SelectorParseError with kube's message. */
export function parseFieldSelector(input: string): FieldSelector {
  return parseAndTransformFieldSelector(input, (field, value) => [field, value]);
}

/** fields.SelectorFromSet: each field must equal its (literal, unescaped) value; ordered by field. */
export function fieldSelectorFromSet(set: Readonly<Record<string, string>>): FieldSelector {
  const fields = Object.keys(set).sort(compareByteOrder);
  if (fields.length === 0) return everythingFields;
  return new TermsSelector(fields.map((field) => ({ field, operator: '=', value: set[field] as string })));
}

/** fields.OneTermEqualSelector: field must equal value. */
export function fieldSelectorOneTermEqual(field: string, value: string): FieldSelector {
  return new TermsSelector([{ field, operator: '=', value }]);
}

/** A selector over the given terms exactly as listed (kube's andTerm literal); no validation. */
export function fieldSelectorFromTerms(terms: readonly FieldTerm[]): FieldSelector {
  return terms.length === 0 ? everythingFields : new TermsSelector(terms);
}

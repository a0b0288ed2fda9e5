/**
 * Kubernetes' name and value formats (k8s.io/apimachinery v0.33 pkg/util/validation and
 * pkg/api/validation/path). Each check returns the list of failure texts, word for word as
 * kube gives them; an empty list means valid. Lengths are counted in UTF-8 bytes, as Go does.
 */

const qualifiedNameFmt = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const qualifiedNameErrMsg =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const qualifiedNameRegexp = new RegExp(`^${qualifiedNameFmt}$`);

/** The longest name part a qualified name (label key) may have. */
export const qualifiedNameMaxLength = 63;

const labelValueFmt = `(${qualifiedNameFmt})?`;
const labelValueErrMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const labelValueRegexp = new RegExp(`^${labelValueFmt}$`);

/** The longest label value allowed. */
export const labelValueMaxLength = 63;

const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123LabelErrMsg =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const dns1123LabelRegexp = new RegExp(`^${dns1123LabelFmt}$`);

/** The longest DNS-1123 label allowed. */
export const dns1123LabelMaxLength = 63;

const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const dns1123SubdomainErrMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const dns1123SubdomainRegexp = new RegExp(`^${dns1123SubdomainFmt}$`);

/** The longest DNS-1123 subdomain allowed. */
export const dns1123SubdomainMaxLength = 253;

const dns1035LabelFmt = '[a-z]([-a-z0-9]*[a-z0-9])?';
const dns1035LabelErrMsg =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const dns1035LabelRegexp = new RegExp(`^${dns1035LabelFmt}$`);

/** The longest DNS-1035 label allowed. */
export const dns1035LabelMaxLength = 63;

/** Names that may not be used as an API path segment. */
export const nameMayNotBe: readonly string[] = ['.', '..'];
/** Substrings a name used as an API path segment may not contain. */
export const nameMayNotContain: readonly string[] = ['/', '%'];

/** validation.MaxLenError: the "too long" text. */
export function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

/** validation.EmptyError: the "must not be empty" text. */
export function emptyError(): string {
  return 'must be non-empty';
}

/**
 * validation.RegexError: the message, examples and the regex. Kube's wording puts two spaces
 * before each "or" (`'my-name',  or '123-abc'`); that quirk is kept on purpose.
 */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  let out = `${msg} (e.g. `;
  examples.forEach((example, i) => {
    if (i > 0) out += ' or ';
    out += `'${example}', `;
  });
  return `${out}regex used for validation is '${fmt}')`;
}

/** The length Go's len() reports for a string: its UTF-8 byte count. */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/**
 * IsQualifiedName: label keys, annotation keys and finalizer names — an optional DNS-1123
 * subdomain prefix and '/', then a name of at most 63 characters.
 */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0] as string;
  } else if (parts.length === 2) {
    const prefix = parts[0] as string;
    name = parts[1] as string;
    if (prefix.length === 0) {
      errs.push(`prefix part ${emptyError()}`);
    } else {
      for (const msg of isDNS1123Subdomain(prefix)) errs.push(`prefix part ${msg}`);
    }
  } else {
    return [
      `a qualified name ${regexError(qualifiedNameErrMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc')}` +
        " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  }
  if (name.length === 0) errs.push(`name part ${emptyError()}`);
  else if (utf8Length(name) > qualifiedNameMaxLength) errs.push(`name part ${maxLenError(qualifiedNameMaxLength)}`);
  if (!qualifiedNameRegexp.test(name)) {
    errs.push(`name part ${regexError(qualifiedNameErrMsg, qualifiedNameFmt, 'MyName', 'my.name', '123-abc')}`);
  }
  return errs;
}

/** IsValidLabelValue: empty, or at most 63 alphanumerics/'-'/'_'/'.' starting and ending alphanumeric. */
export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (utf8Length(value) > labelValueMaxLength) errs.push(maxLenError(labelValueMaxLength));
  if (!labelValueRegexp.test(value)) errs.push(regexError(labelValueErrMsg, labelValueFmt, 'MyValue', 'my_value', '12345'));
  return errs;
}

/** IsDNS1123Label: a lowercase RFC 1123 label (namespace names, most short names). */
export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (utf8Length(value) > dns1123LabelMaxLength) errs.push(maxLenError(dns1123LabelMaxLength));
  if (!dns1123LabelRegexp.test(value)) {
    // A valid subdomain that is not a valid label can only be failing on its dots.
    if (dns1123SubdomainRegexp.test(value)) errs.push('must not contain dots');
    else errs.push(regexError(dns1123LabelErrMsg, dns1123LabelFmt, 'my-name', '123-abc'));
  }
  return errs;
}

/** IsDNS1123Subdomain: a lowercase RFC 1123 subdomain (most object names). */
export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (utf8Length(value) > dns1123SubdomainMaxLength) errs.push(maxLenError(dns1123SubdomainMaxLength));
  if (!dns1123SubdomainRegexp.test(value)) errs.push(regexError(dns1123SubdomainErrMsg, dns1123SubdomainFmt, 'example.com'));
  return errs;
}

/** IsDNS1035Label: a DNS-1035 label, which must start with a letter (service names). */
export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (utf8Length(value) > dns1035LabelMaxLength) errs.push(maxLenError(dns1035LabelMaxLength));
  if (!dns1035LabelRegexp.test(value)) errs.push(regexError(dns1035LabelErrMsg, dns1035LabelFmt, 'my-name', 'abc-123'));
  return errs;
}

/** IsValidPathSegmentName: a name that can be encoded as one API path segment (not `.`/`..`, no `/` or `%`). */
export function isValidPathSegmentName(name: string): string[] {
  for (const illegal of nameMayNotBe) {
    if (name === illegal) return [`may not be '${illegal}'`];
  }
  return isValidPathSegmentPrefix(name);
}

/** IsValidPathSegmentPrefix: a generateName prefix; only the forbidden substrings are checked. */
export function isValidPathSegmentPrefix(name: string): string[] {
  const errs: string[] = [];
  for (const illegal of nameMayNotContain) {
    if (name.includes(illegal)) errs.push(`may not contain '${illegal}'`);
  }
  return errs;
}

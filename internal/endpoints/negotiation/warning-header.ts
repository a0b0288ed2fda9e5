/**
 * The `Warning: 299 - "<text>"` header values of a request's warnings, as kube's warning recorder
 * (k8s.io/apimachinery net.NewWarningHeader) makes them: a text with a control character is
 * dropped, `"` and `\` are escaped, and everything else is sent as its UTF-8 bytes.
 */

// unicode.IsControl: the C0 and C1 control characters.
const controlCharacter = /[\u0000-\u001f\u007f-\u009f]/;
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * The header value for one warning, or undefined when kube would drop the warning. The result holds
 * the UTF-8 bytes as latin1 characters, which is how node:http writes non-ASCII header bytes.
 */
export function warningHeaderValue(text: string): string | undefined {
  if (text === '' || controlCharacter.test(text)) return undefined;
  // A JSON body decodes a lone surrogate to U+FFFD in Go, so a text quoting one carries that.
  const quoted = `299 - "${text.replace(loneSurrogate, '\ufffd').replace(/["\\]/g, (c) => `\\${c}`)}"`;
  return Buffer.from(quoted, 'utf8').toString('latin1');
}

/** The Warning header values of warnings, in order, without those kube drops. */
export function warningHeaderValues(warnings: readonly string[]): string[] {
  return warnings.map(warningHeaderValue).filter((v): v is string => v !== undefined);
}

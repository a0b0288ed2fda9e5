/**
 * Setting a key that came from user data on a plain object. JSON.parse makes "__proto__" an own
 * key, but `o[key] = v` with that key calls Object.prototype's __proto__ setter instead: a string
 * value is silently dropped and an object value becomes o's PROTOTYPE. Every copy or walk that
 * writes keys taken from a request, a stored object or a patch goes through setOwnKey.
 */

/**
 * Sets key on target as an own enumerable, writable, configurable data property, as JSON.parse
 * would, even when key is "__proto__". Other keys take the plain assignment (the fast path).
 */
export function setOwnKey(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

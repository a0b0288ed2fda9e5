/**
 * Nesting limits for request bodies. kube's JSON decoders (encoding/json and sigs.k8s.io/json)
 * refuse a document nested more than 10,000 arrays and objects deep with a syntax error; Capstan
 * refuses the same documents with the same words, found by a scan that keeps no stack.
 */

/** encoding/json's maxNestingDepth. */
export const maxNestingDepth = 10_000;

/**
 * Go's syntax error for text nested deeper than maxNestingDepth ("invalid character '{' exceeded
 * max depth"), or undefined. Looks at brackets outside strings only; any other malformation is left
 * to the parser.
 */
export function nestingDepthError(text: string): string | undefined {
  // Fewer characters than levels cannot nest too deep: the common case costs nothing.
  if (text.length <= maxNestingDepth) return undefined;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === 0x5c) i++;
        else if (s === 0x22) break;
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxNestingDepth) return `invalid character '${text[i]}' exceeded max depth`;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return undefined;
}

/** True when value holds arrays and objects nested more than limit deep. Keeps its own stack. */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v as Record<string, unknown>)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** True for V8's RangeError of a call stack overflow. */
export function isStackOverflow(err: unknown): boolean {
  return err instanceof RangeError && err.message.includes('Maximum call stack size exceeded');
}

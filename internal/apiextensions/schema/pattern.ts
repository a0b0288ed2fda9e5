/**
 * CRD `pattern` is Go RE2 syntax; Capstan matches with JavaScript RegExp (the 'u' flag) after
 * rewriting the RE2-only spellings: leading inline flags ((?i), (?s), (?m)), \A and \z, \pL,
 * (?P<name>...), \Q...\E, POSIX classes ([[:alpha:]]), and escapes or braces RE2 takes literally
 * that the 'u' flag refuses. What still differs: RE2 has no backreferences or lookarounds (a CRD
 * using them was refused by kube), and case folding of a few special characters.
 */

const posixClasses: Readonly<Record<string, string>> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  ascii: '\\x00-\\x7F',
  blank: '\\t ',
  cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-\\/:-@\\[-`{-~',
  space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z',
  word: '0-9A-Za-z_',
  xdigit: '0-9A-Fa-f',
};

const syntaxChars = new Set([...'^$\\.*+?()[]{}|/']);

function escapeLiteral(text: string): string {
  return [...text].map((c) => (syntaxChars.has(c) || c === '-' ? `\\${c}` : c)).join('');
}

/** Rewrites an RE2 pattern for JavaScript; returns the source and the flags to add to 'u'. */
export function translateRe2(pattern: string): { source: string; flags: string } {
  let flags = '';
  let i = 0;
  const lead = /^\(\?([imsU]+)\)/.exec(pattern);
  if (lead) {
    for (const f of lead[1] as string) if (f !== 'U' && !flags.includes(f)) flags += f;
    i = lead[0].length;
  }
  let out = '';
  let inClass = false;
  while (i < pattern.length) {
    const c = pattern[i] as string;
    if (c === '\\') {
      const n = pattern[i + 1] ?? '';
      if (n === 'Q') {
        const end = pattern.indexOf('\\E', i + 2);
        const lit = pattern.slice(i + 2, end < 0 ? undefined : end);
        out += escapeLiteral(lit);
        i = end < 0 ? pattern.length : end + 2;
        continue;
      }
      if (!inClass && n === 'A') out += '^';
      else if (!inClass && n === 'z') out += '$';
      else if ((n === 'p' || n === 'P') && pattern[i + 2] !== '{') {
        out += `\\${n}{${pattern[i + 2] ?? ''}}`;
        i += 3;
        continue;
      } else if (/[A-Za-z0-9]/.test(n) || syntaxChars.has(n) || (inClass && n === '-')) out += `\\${n}`;
      // RE2 lets any punctuation be escaped; under 'u' only syntax characters may be.
      else out += n;
      i += 2;
      continue;
    }
    if (inClass) {
      const posix = /^\[:(\^?)([a-z]+):\]/.exec(pattern.slice(i));
      if (posix && posixClasses[posix[2] as string] !== undefined && posix[1] === '') {
        out += posixClasses[posix[2] as string];
        i += posix[0].length;
        continue;
      }
      if (c === ']') inClass = false;
      else if (c === '[') {
        out += '\\[';
        i++;
        continue;
      }
      out += c;
      i++;
      continue;
    }
    if (c === '[') {
      inClass = true;
      out += c;
      i++;
      if (pattern[i] === '^') {
        out += '^';
        i++;
      }
      // A leading ']' is a literal in RE2.
      if (pattern[i] === ']') {
        out += '\\]';
        i++;
      }
      continue;
    }
    if (c === '(' && pattern.startsWith('(?P<', i)) {
      out += '(?<';
      i += 4;
      continue;
    }
    if (c === '{' && !/^\{\d+(,\d*)?\}/.test(pattern.slice(i))) out += '\\{';
    else if (c === '}' && !/\{\d+(,\d*)?$/.test(pattern.slice(0, i))) out += '\\}';
    else if (c === ']') out += '\\]';
    else out += c;
    i++;
  }
  return { source: out, flags };
}

/** Compiles an RE2 pattern as a JavaScript RegExp; undefined when it cannot be expressed. */
export function compileRe2(pattern: string): RegExp | undefined {
  const { source, flags } = translateRe2(pattern);
  for (const candidate of [`${flags}u`, flags]) {
    try {
      return new RegExp(source, candidate);
    } catch {
      // try the next form
    }
  }
  return undefined;
}

/**
 * --vmodule: per-file verbosity as klog applies it. Each pattern=N is matched (Go's filepath.Match
 * glob: `*`, `?`, `[...]`, `\` escapes; a pattern without metacharacters compares literally)
 * against the base name of the logging call's source file without its extension ("httplog" for
 * internal/filters/httplog.ts); the first matching pattern gives that file's level. Entries with
 * level 0 are dropped, as klog drops them.
 */

/** One pattern=N of --vmodule. */
export interface VModuleItem {
  readonly pattern: string;
  readonly level: number;
}

/** A compiled --vmodule: the level of a file, or undefined when no pattern matches it. */
export interface VModule {
  levelOf(fileBase: string): number | undefined;
}

/** Go's filepath.Match as a RegExp; undefined for a malformed pattern (which matches nothing). */
export function globToRegExp(pattern: string): RegExp | undefined {
  let re = '^';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '\\') {
      const next = pattern[++i];
      if (next === undefined) return undefined;
      re += escapeRegExp(next);
    } else if (c === '[') {
      let j = i + 1;
      let cls = '[';
      if (pattern[j] === '^') {
        cls += '^';
        j++;
      }
      let members = 0;
      for (;;) {
        const m = pattern[j];
        if (m === undefined) return undefined;
        if (m === ']' && members > 0) break;
        let lo = m;
        if (m === '\\') {
          lo = pattern[++j] as string;
          if (lo === undefined) return undefined;
        }
        j++;
        cls += escapeClass(lo);
        if (pattern[j] === '-' && pattern[j + 1] !== undefined && pattern[j + 1] !== ']') {
          let hi = pattern[j + 1] as string;
          j += 2;
          if (hi === '\\') {
            hi = pattern[j++] as string;
            if (hi === undefined) return undefined;
          }
          if (hi < lo) return undefined;
          cls += `-${escapeClass(hi)}`;
        }
        members++;
      }
      re += `${cls}]`;
      i = j;
    } else re += escapeRegExp(c);
  }
  try {
    return new RegExp(`${re}$`, 'u');
  } catch {
    return undefined;
  }
}

function escapeRegExp(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? `\\${c}` : c;
}

function escapeClass(c: string): string {
  return /[\]\\^-]/.test(c) ? `\\${c}` : c;
}

/** Compiles validated --vmodule items; undefined when none has a level above 0 (vmodule off). */
export function compileVModule(items: readonly VModuleItem[]): VModule | undefined {
  const filters = items
    .filter((i) => i.level > 0)
    .map((i) => {
      const literal = !/[\\*?[\]]/.test(i.pattern);
      const re = literal ? undefined : globToRegExp(i.pattern);
      return { pattern: i.pattern, literal, re, level: i.level };
    });
  if (filters.length === 0) return undefined;
  return {
    levelOf(fileBase) {
      for (const f of filters) {
        if (f.literal ? f.pattern === fileBase : f.re?.test(fileBase) === true) return f.level;
      }
      return undefined;
    },
  };
}

/**
 * Just enough of Dockerfile and .dockerignore syntax to check deploy/Dockerfile without a Docker
 * engine: instructions with their continuation lines joined, stages, and the ignore patterns that
 * decide which paths of the build context a COPY can see.
 */

/** One instruction: its keyword (upper-cased), its flags (--from=build) and its arguments. */
export interface Instruction {
  readonly line: number;
  readonly keyword: string;
  readonly flags: Readonly<Record<string, string>>;
  readonly args: string;
}

/** A stage: its FROM image, its name (AS x) if any, and its instructions after FROM. */
export interface Stage {
  readonly image: string;
  readonly name?: string;
  readonly instructions: Instruction[];
}

const keywords = new Set([
  'FROM', 'RUN', 'CMD', 'LABEL', 'EXPOSE', 'ENV', 'ADD', 'COPY', 'ENTRYPOINT', 'VOLUME', 'USER', 'WORKDIR',
  'ARG', 'ONBUILD', 'STOPSIGNAL', 'HEALTHCHECK', 'SHELL', 'MAINTAINER',
]);

/** Parses a Dockerfile; throws on an unknown instruction or a stage instruction before FROM. */
export function parseDockerfile(text: string): { globalArgs: Instruction[]; stages: Stage[] } {
  const lines = text.split('\n');
  const instructions: Instruction[] = [];
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    let logical = lines[i] ?? '';
    if (/^\s*(#|$)/.test(logical)) continue;
    while (/\\\s*$/.test(logical) && i + 1 < lines.length) {
      i++;
      const next = lines[i] ?? '';
      if (/^\s*#/.test(next)) continue; // comment lines inside a continuation are dropped, as BuildKit does
      logical = logical.replace(/\\\s*$/, ' ') + next;
    }
    const m = /^\s*(\w+)\s*(.*)$/.exec(logical);
    if (!m) throw new Error(`line ${start + 1}: not an instruction: ${logical}`);
    const keyword = (m[1] ?? '').toUpperCase();
    if (!keywords.has(keyword)) throw new Error(`line ${start + 1}: unknown instruction ${keyword}`);
    let rest = (m[2] ?? '').trim();
    const flags: Record<string, string> = {};
    for (let f = /^--([\w-]+)=(\S+)\s*/.exec(rest); f; f = /^--([\w-]+)=(\S+)\s*/.exec(rest)) {
      flags[f[1] ?? ''] = f[2] ?? '';
      rest = rest.slice(f[0].length);
    }
    instructions.push({ line: start + 1, keyword, flags, args: rest.replace(/\s+/g, ' ') });
  }
  const globalArgs: Instruction[] = [];
  const stages: Stage[] = [];
  for (const ins of instructions) {
    if (ins.keyword === 'FROM') {
      const [image = '', as, name] = ins.args.split(' ');
      stages.push({ image, ...(as?.toUpperCase() === 'AS' && name ? { name } : {}), instructions: [] });
    } else if (stages.length > 0) stages[stages.length - 1]?.instructions.push(ins);
    else if (ins.keyword === 'ARG') globalArgs.push(ins);
    else throw new Error(`line ${ins.line}: ${ins.keyword} before the first FROM`);
  }
  return { globalArgs, stages };
}

/** The JSON-array (exec) form of an instruction's arguments, or undefined when it is the shell form. */
export function execForm(args: string): string[] | undefined {
  if (!args.startsWith('[')) return undefined;
  const parsed: unknown = JSON.parse(args);
  return Array.isArray(parsed) && parsed.every((a) => typeof a === 'string') ? parsed : undefined;
}

function patternToRegExp(pattern: string): RegExp {
  let re = '';
  const p = pattern.replace(/^\/+/, '').replace(/\/+$/, '');
  for (let i = 0; i < p.length; i++) {
    const c = p[i] ?? '';
    if (c === '*' && p[i + 1] === '*') {
      re += '.*';
      i++;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** Whether .dockerignore's patterns leave path (relative to the context root) out of the context. */
export function ignoredByDockerignore(dockerignore: string, path: string): boolean {
  const rules = dockerignore
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => (l.startsWith('!') ? { keep: true, re: patternToRegExp(l.slice(1)) } : { keep: false, re: patternToRegExp(l) }));
  const parts = path.replace(/^\.\//, '').split('/');
  let ignored = false;
  // A pattern that matches a directory leaves out everything below it; the last matching rule wins.
  for (const rule of rules) {
    for (let n = 1; n <= parts.length; n++) {
      if (rule.re.test(parts.slice(0, n).join('/'))) {
        ignored = !rule.keep;
        break;
      }
    }
  }
  return ignored;
}

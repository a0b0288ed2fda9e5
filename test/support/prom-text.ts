/**
 * Test support: a parser of the Prometheus text exposition format (0.0.4), strict enough that a
 * malformed line fails the test that reads it, and helpers to pick samples by labels.
 */

/** One sample line. */
export interface PromSample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** One family: its # HELP and # TYPE and its samples (histogram _bucket/_sum/_count included). */
export interface PromFamily {
  readonly name: string;
  help: string;
  type: string;
  readonly samples: PromSample[];
}

/** The families of a /metrics text by name. */
export type PromText = Map<string, PromFamily>;

function parseValue(s: string, line: string): number {
  if (s === '+Inf') return Infinity;
  if (s === '-Inf') return -Infinity;
  if (s === 'NaN') return NaN;
  const n = Number(s);
  if (s === '' || Number.isNaN(n)) throw new Error(`bad sample value in ${JSON.stringify(line)}`);
  return n;
}

function parseLabels(body: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let i = 0;
  while (i < body.length) {
    const m = /^([a-zA-Z_][a-zA-Z0-9_]*)="/.exec(body.slice(i));
    if (!m) throw new Error(`bad labels in ${JSON.stringify(line)}`);
    i += m[0].length;
    let value = '';
    for (;;) {
      const c = body[i];
      if (c === undefined) throw new Error(`unterminated label value in ${JSON.stringify(line)}`);
      i++;
      if (c === '"') break;
      if (c === '\\') {
        const e = body[i++];
        value += e === 'n' ? '\n' : e === '\\' ? '\\' : e === '"' ? '"' : `\\${e ?? ''}`;
      } else value += c;
    }
    if ((m[1] as string) in labels) throw new Error(`duplicate label ${m[1]} in ${JSON.stringify(line)}`);
    labels[m[1] as string] = value;
    if (body[i] === ',') i++;
    else if (i < body.length) throw new Error(`bad label separator in ${JSON.stringify(line)}`);
  }
  return labels;
}

/** The family a sample belongs to: its own name, or the histogram/summary it is a part of. */
function familyOf(families: PromText, sample: string): PromFamily | undefined {
  const direct = families.get(sample);
  if (direct) return direct;
  for (const suffix of ['_bucket', '_sum', '_count']) {
    if (sample.endsWith(suffix)) {
      const f = families.get(sample.slice(0, -suffix.length));
      if (f && (f.type === 'histogram' || f.type === 'summary')) return f;
    }
  }
  return undefined;
}

/** Parses a text exposition; throws on any line it cannot read or a sample without its # TYPE. */
export function parsePromText(text: string): PromText {
  const families: PromText = new Map();
  const family = (name: string): PromFamily => {
    let f = families.get(name);
    if (!f) families.set(name, (f = { name, help: '', type: 'untyped', samples: [] }));
    return f;
  };
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('# HELP ')) {
      const rest = line.slice(7);
      const sp = rest.indexOf(' ');
      family(sp < 0 ? rest : rest.slice(0, sp)).help = sp < 0 ? '' : rest.slice(sp + 1).replace(/\\n/g, '\n').replace(/\\\\/g, '\\');
      continue;
    }
    if (line.startsWith('# TYPE ')) {
      const [name, type] = line.slice(7).split(' ') as [string, string];
      family(name).type = type;
      continue;
    }
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: (-?\d+))?$/.exec(line);
    if (!m) throw new Error(`bad sample line ${JSON.stringify(line)}`);
    const name = m[1] as string;
    const f = familyOf(families, name);
    if (!f) throw new Error(`sample ${name} has no # TYPE`);
    f.samples.push({ name, labels: parseLabels(m[2] ?? '', line), value: parseValue(m[3] as string, line) });
  }
  return families;
}

/** Whether every label of want is on sample with the same value. */
function matches(sample: PromSample, want: Readonly<Record<string, string>>): boolean {
  for (const [k, v] of Object.entries(want)) if (sample.labels[k] !== v) return false;
  return true;
}

/** Samples of the sample name (e.g. "x_bucket") whose labels include want. */
export function samplesOf(text: PromText, name: string, want: Readonly<Record<string, string>> = {}): PromSample[] {
  return (familyOf(text, name)?.samples ?? []).filter((s) => s.name === name && matches(s, want));
}

/** The sum of the samples of name whose labels include want (0 when there are none). */
export function sumOf(text: PromText, name: string, want: Readonly<Record<string, string>> = {}): number {
  return samplesOf(text, name, want).reduce((a, s) => a + s.value, 0);
}

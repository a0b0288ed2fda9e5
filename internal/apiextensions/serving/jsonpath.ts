/**
 * The JSONPath subset of client-go's util/jsonpath that kube evaluates for additionalPrinterColumns
 * and selectableFields: fields (.a, ['a'], ["a"]), array indexes and slices ([0], [-1], [1:3:2]),
 * wildcards (.*, [*]), unions ([0,2], ['a','b']), filters ([?(@.type=="Ready")], [?(@.x)]) and
 * recursive descent (..name). Missing keys give no result (kube's AllowMissingKeys(true)). A path is
 * compiled once and evaluated many times.
 */

type Step =
  | { readonly kind: 'field'; readonly names: readonly string[] }
  | { readonly kind: 'wildcard' }
  | { readonly kind: 'recursive' }
  | { readonly kind: 'index'; readonly indexes: readonly number[] }
  | { readonly kind: 'slice'; readonly start?: number; readonly end?: number; readonly step?: number }
  | { readonly kind: 'filter'; readonly left: Operand; readonly op?: string; readonly right?: Operand };

type Operand = { readonly path: readonly Step[] } | { readonly literal: unknown };

/** Thrown for a path that does not parse (kube: "unrecognized column definition"). */
export class JsonPathError extends Error {}

/** A compiled JSONPath. */
export interface CompiledJsonPath {
  /** The source as given. */
  readonly source: string;
  /** Every value the path selects in obj, in document order. Never mutates obj. */
  find(obj: unknown): unknown[];
}

/** Compiles path (with or without the surrounding {}); throws JsonPathError when it does not parse. */
export function compileJsonPath(path: string): CompiledJsonPath {
  let text = path.trim();
  if (text.startsWith('{') && text.endsWith('}')) text = text.slice(1, -1).trim();
  const parser = new Parser(text);
  const steps = parser.parsePath(false);
  if (!parser.done()) throw new JsonPathError(`unrecognized character in action: ${JSON.stringify(text.slice(parser.pos))}`);
  return { source: path, find: (obj) => evaluate(steps, [obj]) };
}

class Parser {
  pos = 0;
  constructor(private readonly text: string) {}

  done(): boolean {
    return this.pos >= this.text.length;
  }

  private peek(n = 0): string {
    return this.text[this.pos + n] ?? '';
  }

  /** Steps until the end, or (inFilter) until a character that ends an operand. */
  parsePath(inFilter: boolean): Step[] {
    const steps: Step[] = [];
    if (this.peek() === '$') this.pos++;
    if (inFilter && this.peek() === '@') this.pos++;
    while (!this.done()) {
      const c = this.peek();
      if (c === '.') {
        if (this.peek(1) === '.') {
          this.pos += 2;
          steps.push({ kind: 'recursive' });
          if (this.peek() === '[') continue;
        } else {
          this.pos++;
        }
        if (this.peek() === '*') {
          this.pos++;
          steps.push({ kind: 'wildcard' });
          continue;
        }
        const name = this.identifier();
        if (name === '') {
          if (steps.length === 0 && !inFilter && this.done()) break; // "." alone selects the object
          throw new JsonPathError(`invalid field name at position ${this.pos}`);
        }
        steps.push({ kind: 'field', names: [name] });
      } else if (c === '[') {
        steps.push(this.bracket());
      } else if (inFilter) {
        break;
      } else {
        throw new JsonPathError(`unrecognized character in action: ${JSON.stringify(this.text.slice(this.pos))}`);
      }
    }
    return steps;
  }

  private identifier(): string {
    const start = this.pos;
    while (!this.done() && /[A-Za-z0-9_\-/$]/.test(this.peek())) this.pos++;
    return this.text.slice(start, this.pos);
  }

  private bracket(): Step {
    this.pos++; // [
    const close = (): void => {
      this.skipSpaces();
      if (this.peek() !== ']') throw new JsonPathError(`unterminated array at position ${this.pos}`);
      this.pos++;
    };
    this.skipSpaces();
    if (this.peek() === '?') return this.filter();
    if (this.peek() === '*') {
      this.pos++;
      close();
      return { kind: 'wildcard' };
    }
    if (this.peek() === "'" || this.peek() === '"') {
      const names = [this.quoted()];
      this.skipSpaces();
      while (this.peek() === ',') {
        this.pos++;
        this.skipSpaces();
        names.push(this.quoted());
        this.skipSpaces();
      }
      close();
      return { kind: 'field', names };
    }
    const end = this.text.indexOf(']', this.pos);
    if (end < 0) throw new JsonPathError('unterminated array');
    const body = this.text.slice(this.pos, end).replace(/\s+/g, '');
    this.pos = end + 1;
    if (body.includes(':')) {
      const parts = body.split(':');
      if (parts.length > 3) throw new JsonPathError(`invalid array index ${body}`);
      const num = (s: string | undefined): number | undefined => {
        if (s === undefined || s === '') return undefined;
        if (!/^-?\d+$/.test(s)) throw new JsonPathError(`invalid array index ${body}`);
        return Number(s);
      };
      const start = num(parts[0]);
      const stop = num(parts[1]);
      const step = num(parts[2]);
      return { kind: 'slice', ...(start !== undefined ? { start } : {}), ...(stop !== undefined ? { end: stop } : {}), ...(step !== undefined ? { step } : {}) };
    }
    const indexes = body.split(',').map((s) => {
      if (!/^-?\d+$/.test(s)) throw new JsonPathError(`invalid array index ${s}`);
      return Number(s);
    });
    return { kind: 'index', indexes };
  }

  private quoted(): string {
    const q = this.peek();
    if (q !== "'" && q !== '"') throw new JsonPathError(`expected a quoted name at position ${this.pos}`);
    this.pos++;
    let out = '';
    while (!this.done() && this.peek() !== q) {
      if (this.peek() === '\\' && this.pos + 1 < this.text.length) this.pos++;
      out += this.peek();
      this.pos++;
    }
    if (this.done()) throw new JsonPathError('unclosed quote');
    this.pos++;
    return out;
  }

  private skipSpaces(): void {
    while (this.peek() === ' ') this.pos++;
  }

  private filter(): Step {
    this.pos++; // ?
    if (this.peek() !== '(') throw new JsonPathError('unrecognized filter');
    this.pos++;
    this.skipSpaces();
    const left = this.operand();
    this.skipSpaces();
    let op: string | undefined;
    let right: Operand | undefined;
    const m = /^(==|!=|<=|>=|<|>)/.exec(this.text.slice(this.pos));
    if (m) {
      op = m[1] as string;
      this.pos += op.length;
      this.skipSpaces();
      right = this.operand();
      this.skipSpaces();
    }
    if (this.peek() !== ')') throw new JsonPathError(`unterminated filter at position ${this.pos}`);
    this.pos++;
    this.skipSpaces();
    if (this.peek() !== ']') throw new JsonPathError(`unterminated filter at position ${this.pos}`);
    this.pos++;
    return { kind: 'filter', left, ...(op ? { op } : {}), ...(right ? { right } : {}) };
  }

  private operand(): Operand {
    const c = this.peek();
    if (c === '@' || c === '$') return { path: this.parsePath(true) };
    if (c === "'" || c === '"') return { literal: this.quoted() };
    const m = /^(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null)/.exec(this.text.slice(this.pos));
    if (!m) throw new JsonPathError(`unrecognized filter operand at position ${this.pos}`);
    this.pos += (m[1] as string).length;
    return { literal: JSON.parse(m[1] as string) };
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The value and everything below it, depth first (the nodes recursive descent visits). */
function descendants(v: unknown, out: unknown[]): void {
  out.push(v);
  if (Array.isArray(v)) for (const x of v) descendants(x, out);
  else if (isObject(v)) for (const k of Object.keys(v)) descendants(v[k], out);
}

function evaluate(steps: readonly Step[], start: unknown[]): unknown[] {
  let current = start;
  for (const step of steps) {
    const next: unknown[] = [];
    for (const v of current) applyStep(step, v, next);
    current = next;
  }
  return current;
}

function applyStep(step: Step, v: unknown, out: unknown[]): void {
  switch (step.kind) {
    case 'recursive':
      descendants(v, out);
      return;
    case 'field':
      if (isObject(v)) for (const n of step.names) if (Object.hasOwn(v, n)) out.push(v[n]);
      return;
    case 'wildcard':
      if (Array.isArray(v)) out.push(...v);
      else if (isObject(v)) out.push(...Object.values(v));
      return;
    case 'index':
      if (!Array.isArray(v)) return;
      for (const i of step.indexes) {
        const at = i < 0 ? v.length + i : i;
        if (at >= 0 && at < v.length) out.push(v[at]);
      }
      return;
    case 'slice': {
      if (!Array.isArray(v)) return;
      const len = v.length;
      const norm = (n: number | undefined, dflt: number): number => {
        if (n === undefined) return dflt;
        const x = n < 0 ? n + len : n;
        return Math.min(Math.max(x, 0), len);
      };
      const start = norm(step.start, 0);
      const end = norm(step.end, len);
      const by = step.step ?? 1;
      if (by <= 0) return;
      for (let i = start; i < end; i += by) out.push(v[i]);
      return;
    }
    case 'filter': {
      const items = Array.isArray(v) ? v : isObject(v) ? Object.values(v) : [];
      for (const item of items) if (matchesFilter(step, item)) out.push(item);
      return;
    }
  }
}

function operandValues(o: Operand, item: unknown): unknown[] {
  return 'literal' in o ? [o.literal] : evaluate(o.path, [item]);
}

function matchesFilter(step: Extract<Step, { kind: 'filter' }>, item: unknown): boolean {
  const left = operandValues(step.left, item);
  if (!step.op || !step.right) return left.length > 0 && left[0] !== undefined;
  const right = operandValues(step.right, item);
  if (left.length === 0 || right.length === 0) return false;
  const a = left[0];
  const b = right[0];
  switch (step.op) {
    case '==':
      return looseEqual(a, b);
    case '!=':
      return !looseEqual(a, b);
    default: {
      if (typeof a !== 'number' || typeof b !== 'number') return false;
      if (step.op === '<') return a < b;
      if (step.op === '>') return a > b;
      if (step.op === '<=') return a <= b;
      return a >= b;
    }
  }
}

function looseEqual(a: unknown, b: unknown): boolean {
  if (typeof a === 'object' || typeof b === 'object') return JSON.stringify(a) === JSON.stringify(b);
  return a === b;
}

/**
 * Go's fmt.Fprint of a decoded JSON value, as client-go's jsonpath prints a result: strings as they
 * are, maps as map[k:v ...] with sorted keys, slices as [a b], numbers in Go's %v form.
 */
export function printJsonValue(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return goNumber(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(printJsonValue).join(' ')}]`;
  const o = v as Record<string, unknown>;
  return `map[${Object.keys(o)
    .sort()
    .map((k) => `${k}:${printJsonValue(o[k])}`)
    .join(' ')}]`;
}

/** A float64's %v text: shortest repr, exponent form from 1e21 as Go prints it (e+21). */
function goNumber(n: number): string {
  const abs = Math.abs(n);
  if (abs !== 0 && (abs >= 1e21 || abs < 1e-4)) {
    return n.toExponential().replace(/e([+-])(\d)$/, 'e$10$2');
  }
  return String(n);
}

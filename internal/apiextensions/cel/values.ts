/**
 * A custom resource's JSON as CEL sees it under its schema (kube's UnstructuredToVal): integers as
 * int, numbers as double (1 stays 1.0), date and date-time strings as timestamps, duration strings
 * as durations, byte strings as bytes, objects and maps as maps converted one field at a time when
 * a rule reaches them, and untyped parts (int-or-string, preserve-unknown-fields) as they come.
 * Never mutates the JSON.
 */
import { durationFromMs, DurationSchema, timestampFromDate, TimestampSchema, type Duration, type Timestamp } from '@bufbuild/protobuf/wkt';
import { reflect } from '@bufbuild/protobuf/reflect';
import { PreparedCelInput, toCel, typedList, typedMap, type CelInput } from '../../cel/expression.js';
import { unescapeFieldName } from '../../cel/values.js';
import type { DeclType } from './interface.js';

const goDurationUnits: Readonly<Record<string, number>> = { ns: 1e-6, us: 1e-3, µs: 1e-3, μs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** A Go / OpenAPI duration ("1h30m", "500ms", "2 days") in milliseconds; undefined when it does not parse. */
export function parseDurationMs(text: string): number | undefined {
  const s = text.trim();
  if (s === '0') return 0;
  const re = /([-+]?\d+(?:\.\d+)?)\s*(seconds?|minutes?|hours?|days?|weeks?|ns|us|µs|μs|ms|s|m|h|d|w)/gy;
  let total = 0;
  let matched = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(s)) !== null) {
    const unit = m[2]!.length > 2 ? { second: 's', minute: 'm', hour: 'h', day: 'd', week: 'w' }[m[2]!.replace(/s$/, '')] ?? '' : m[2]!;
    total += Number(m[1]) * (goDurationUnits[unit] ?? NaN);
    matched = re.lastIndex;
    while (s[re.lastIndex] === ' ') re.lastIndex++;
  }
  return matched === s.length && matched > 0 && Number.isFinite(total) ? total : undefined;
}

function timestampOf(text: string, format: 'date' | 'date-time'): Timestamp | undefined {
  const ok = format === 'date' ? /^\d{4}-\d{2}-\d{2}$/.test(text) : /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})?$/.test(text);
  if (!ok) return undefined;
  const d = new Date(format === 'date' ? `${text}T00:00:00Z` : text);
  return Number.isNaN(d.getTime()) ? undefined : timestampFromDate(d);
}

function scalar(value: unknown, t: DeclType | undefined): CelInput {
  if (!t || t.kind === 'dyn') return toCel(value);
  switch (t.kind) {
    case 'int':
      return typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : toCel(value);
    case 'double':
      return typeof value === 'number' ? value : toCel(value);
    case 'timestamp': {
      const ts = typeof value === 'string' ? timestampOf(value, t.format === 'date' ? 'date' : 'date-time') : undefined;
      return ts ? (reflect(TimestampSchema, ts) as unknown as CelInput) : toCel(value);
    }
    case 'duration': {
      const ms = typeof value === 'string' ? parseDurationMs(value) : undefined;
      return ms !== undefined ? (reflect(DurationSchema, durationFromMs(ms) as Duration) as unknown as CelInput) : toCel(value);
    }
    case 'bytes':
      return typeof value === 'string' ? new Uint8Array(Buffer.from(value, 'base64')) : toCel(value);
    default:
      return toCel(value);
  }
}

/** A JSON object or map under its type: fields converted on first access. */
class SchemaMap extends Map<string, CelInput> {
  private readonly cache = new Map<string, CelInput>();
  private keys_: readonly string[] | undefined;

  constructor(
    private readonly obj: Record<string, unknown>,
    private readonly type: DeclType,
  ) {
    super();
  }

  // Listing keys is only needed for iteration and size(), so it waits for them.
  private get keyList(): readonly string[] {
    this.keys_ ??= this.type.metadataOnly ? Object.keys(this.obj).filter((k) => k === 'name' || k === 'generateName') : Object.keys(this.obj);
    return this.keys_;
  }

  override get size(): number {
    return this.keyList.length;
  }

  private own(key: string): string | undefined {
    if (typeof key !== 'string') return undefined;
    const visible = (k: string) => Object.prototype.hasOwnProperty.call(this.obj, k) && (!this.type.metadataOnly || k === 'name' || k === 'generateName');
    if (visible(key)) return key;
    const unescaped = unescapeFieldName(key);
    return unescaped !== undefined && visible(unescaped) ? unescaped : undefined;
  }

  override get(name: string): CelInput | undefined {
    const key = this.own(name);
    if (key === undefined) return undefined;
    let v = this.cache.get(key);
    if (v === undefined) {
      const t = this.type.kind === 'map' ? this.type.elem : this.type.props?.get(key);
      v = celInputOf(this.obj[key], t);
      this.cache.set(key, v);
    }
    return v;
  }

  override has(key: string): boolean {
    return this.own(key) !== undefined;
  }

  override *keys(): MapIterator<string> {
    yield* this.keyList;
  }

  override *values(): MapIterator<CelInput> {
    for (const k of this.keyList) yield this.get(k)!;
  }

  override *entries(): MapIterator<[string, CelInput]> {
    for (const k of this.keyList) yield [k, this.get(k)!];
  }

  override [Symbol.iterator](): MapIterator<[string, CelInput]> {
    return this.entries();
  }

  override forEach(cb: (value: CelInput, key: string, map: Map<string, CelInput>) => void, thisArg?: unknown): void {
    for (const [k, v] of this.entries()) cb.call(thisArg, v, k, this);
  }
}

/** value (JSON) as CEL input under type t (undefined or dyn: as the JSON comes). */
export function celInputOf(value: unknown, t: DeclType | undefined): CelInput {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) {
    if (t?.kind !== 'list') return toCel(value);
    const items = value.map((v) => celInputOf(v, t.elem));
    return typedList(items, t.listType === 'map' ? { kind: 'map', keys: t.mapKeys ?? [] } : { kind: t.listType ?? 'atomic' });
  }
  if (typeof value === 'object') {
    if (!t || t.kind === 'dyn' || (t.kind !== 'object' && t.kind !== 'map')) return toCel(value);
    return typedMap(new SchemaMap(value as Record<string, unknown>, t));
  }
  return scalar(value, t);
}

/** The value to bind as a variable (kept exactly as converted; see PreparedCelInput). */
export function bindingOf(value: unknown, t: DeclType | undefined): PreparedCelInput {
  return new PreparedCelInput(celInputOf(value, t));
}

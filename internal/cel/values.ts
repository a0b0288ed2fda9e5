/**
 * JSON values to CEL and back. Objects are converted lazily, one level at a time as an expression
 * reaches into them, so evaluating `object.spec.replicas` against a large object costs a few map
 * lookups, not a copy of the object. Integral JSON numbers become CEL ints, as Kubernetes' CEL
 * sees integer fields.
 */
import { celList, celMap, isCelList, isCelMap, isCelUint, type CelInput, type CelValue } from '@bufbuild/cel';
import { isReflectMessage } from '@bufbuild/protobuf/reflect';
import { optionalValue } from './types.js';

const reserved = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop', 'package', 'namespace', 'return']);

/**
 * The property a CEL field name stands for under Kubernetes' escaping ("x__dash__prop" for
 * "x-prop", "__namespace__" for "namespace", __dot__, __slash__, __underscores__); undefined
 * when the name has no escape in it.
 */
export function unescapeFieldName(name: string): string | undefined {
  const kw = /^__([a-z]+)__$/.exec(name);
  if (kw && reserved.has(kw[1]!)) return kw[1];
  if (!name.includes('__')) return undefined;
  const out = name.replace(/__(underscores|dot|dash|slash)__/g, (_m, w: string) => ({ underscores: '__', dot: '.', dash: '-', slash: '/' })[w]!);
  return out === name ? undefined : out;
}

/** A read-only CEL view of a JSON object: values are converted on first access. */
class LazyJsonMap extends Map<string, CelInput> {
  private readonly cache = new Map<string, CelInput>();

  constructor(private readonly obj: Record<string, unknown>) {
    super();
  }

  override get size(): number {
    return Object.keys(this.obj).length;
  }

  private own(key: string): string | undefined {
    if (typeof key !== 'string') return undefined;
    if (Object.prototype.hasOwnProperty.call(this.obj, key)) return key;
    const unescaped = unescapeFieldName(key);
    return unescaped !== undefined && Object.prototype.hasOwnProperty.call(this.obj, unescaped) ? unescaped : undefined;
  }

  override get(name: string): CelInput | undefined {
    const key = this.own(name);
    if (key === undefined) return undefined;
    let v = this.cache.get(key);
    if (v === undefined) {
      v = toCel(this.obj[key]);
      this.cache.set(key, v);
    }
    return v;
  }

  override has(key: string): boolean {
    return this.own(key) !== undefined;
  }

  override *keys(): MapIterator<string> {
    yield* Object.keys(this.obj);
  }

  override *values(): MapIterator<CelInput> {
    for (const k of Object.keys(this.obj)) yield this.get(k)!;
  }

  override *entries(): MapIterator<[string, CelInput]> {
    for (const k of Object.keys(this.obj)) yield [k, this.get(k)!];
  }

  override [Symbol.iterator](): MapIterator<[string, CelInput]> {
    return this.entries();
  }

  override forEach(cb: (value: CelInput, key: string, map: Map<string, CelInput>) => void, thisArg?: unknown): void {
    for (const [k, v] of this.entries()) cb.call(thisArg, v, k, this);
  }
}

/**
 * A value already in CEL's input form, bound as it is: a JS number stays a double even when
 * integral, a protobuf Timestamp stays a timestamp. For callers that convert by a schema.
 */
export class PreparedCelInput {
  constructor(readonly input: CelInput) {}
}

/** JSON (or a CEL value already) to CEL input. */
export function toCel(value: unknown): CelInput {
  if (value === null || value === undefined) return null;
  if (value instanceof PreparedCelInput) return value.input;
  switch (typeof value) {
    case 'number':
      return Number.isInteger(value) ? BigInt(value) : value;
    case 'string':
    case 'boolean':
    case 'bigint':
      return value;
    case 'object':
      break;
    default:
      return null;
  }
  if (Array.isArray(value)) return value.map(toCel);
  if (value instanceof Map || value instanceof Uint8Array || isCelList(value) || isCelMap(value) || isCelUint(value) || isReflectMessage(value)) {
    return value as CelInput;
  }
  return new LazyJsonMap(value as Record<string, unknown>);
}

/** A CEL value back to JS (lists to arrays, maps to plain objects, uints to bigint). */
export function fromCel(value: CelValue): unknown {
  if (isCelList(value)) return [...value].map((v) => fromCel(v));
  if (isCelMap(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of value) out[String(isCelUint(k) ? k.value : k)] = fromCel(v);
    return out;
  }
  if (isCelUint(value)) return value.value;
  return value;
}

/** optional.of(input) (optional.none() for undefined), for binding a variable declared optional (kube's optionalOldSelf). */
export function optionalInput(input: CelInput | undefined): CelInput {
  if (input === undefined) return optionalValue(undefined) as unknown as CelInput;
  const value: CelValue = Array.isArray(input) ? celList(input) : input instanceof Map ? celMap(input as Map<string, CelInput>) : (input as CelValue);
  return optionalValue(value) as unknown as CelInput;
}

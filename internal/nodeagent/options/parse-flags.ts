/**
 * The node agent's command line as pflag reads kubelet's: --name=value, --name value, bare bool
 * flags (never taking the next argument), one-letter shorthands (-v 2, -h), '_' read as '-', a
 * repeated scalar flag keeping its last value and a repeated list or map flag adding up. Kubelet
 * flags the node agent cannot honour are refused naming why; unknown flags as pflag refuses them.
 */
import { boolFlag, durationFlag, FlagError, intFlag, stringSliceFlag } from '../../server/options/flag-values.js';
import { parseQuantity } from '../../validation/quantity.js';
import { parseEqualsMap, parseLangleMap } from './eviction.js';
import { flagNamed, type FlagDef } from './flag-table.js';
import { parseLabelPairs } from './node-labels.js';
import { parseTaintSpec } from './taints.js';
import { unsupportedFlags } from './unsupported.js';

export { FlagError };

/** Every flag given, by name, with every occurrence's text in order. */
export type FlagValues = ReadonlyMap<string, readonly string[]>;

/** Splits argv into flag occurrences; throws FlagError for unknown, refused or malformed flags. */
export function tokenizeFlags(argv: readonly string[]): FlagValues {
  const out = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      if (i + 1 < argv.length) throw new FlagError(`unknown command ${JSON.stringify(argv[i + 1])}`);
      break;
    }
    if (!arg.startsWith('-') || arg === '-') throw new FlagError(`unknown command ${JSON.stringify(arg)}`);
    const long = arg.startsWith('--');
    const body = arg.slice(long ? 2 : 1);
    const eq = body.indexOf('=');
    const name = eq < 0 ? body : body.slice(0, eq);
    const def = long ? flagNamed(name) : flagNamed(name)?.short === name ? flagNamed(name) : undefined;
    if (!def) {
      const normalized = name.replace(/_/g, '-');
      const why = long ? unsupportedFlags[normalized] : undefined;
      if (why) throw new FlagError(`the kubelet flag --${normalized} is not supported by the node agent: ${why}`);
      throw new FlagError(long ? `unknown flag: --${name}` : `unknown shorthand flag: ${JSON.stringify(name[0])} in ${arg}`);
    }
    let value: string;
    if (eq >= 0) value = body.slice(eq + 1);
    else if (def.type === 'bool') value = 'true';
    else if (def.name === 'version') value = 'true';
    else {
      if (i + 1 >= argv.length) throw new FlagError(`flag needs an argument: ${long ? '--' : '-'}${name}`);
      value = argv[++i] as string;
    }
    const list = out.get(def.name) ?? [];
    list.push(value);
    out.set(def.name, list);
  }
  return out;
}

function last(values: readonly string[]): string {
  return values[values.length - 1] as string;
}

function wrap<T>(def: FlagDef, value: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof FlagError) throw err;
    throw new FlagError(`invalid argument ${JSON.stringify(value)} for "--${def.name}" flag: ${(err as Error).message}`);
  }
}

/** A flag's occurrences as the JSON value of its KubeletConfiguration field (or its own value). */
export function flagValue(def: FlagDef, values: readonly string[]): unknown {
  const v = last(values);
  switch (def.type) {
    case 'string':
      return v;
    case 'bool':
      return boolFlag(def.name, v);
    case 'int':
    case 'level': {
      const n = intFlag(def.name, v);
      if (n < -(2 ** 31) || n >= 2 ** 31) throw new FlagError(`invalid argument ${JSON.stringify(v)} for "--${def.name}" flag: strconv.ParseInt: parsing ${JSON.stringify(v)}: value out of range`);
      return n;
    }
    case 'duration':
      durationFlag(def.name, v);
      return v;
    case 'quantity':
      return wrap(def, v, () => (parseQuantity(v), v));
    case 'strings':
      return stringSliceFlag(def.name, values);
    case 'langleMap':
      return Object.assign({}, ...values.map((x) => wrap(def, x, () => parseLangleMap(x)))) as Record<string, string>;
    case 'equalsMap':
      return Object.assign({}, ...values.map((x) => wrap(def, x, () => parseEqualsMap(x)))) as Record<string, string>;
    case 'labels': {
      const labels: Record<string, string> = {};
      for (const x of values) wrap(def, x, () => parseLabelPairs(x, labels));
      return labels;
    }
    case 'taints':
      return values.flatMap((x) =>
        x
          .split(',')
          .filter((s) => s.length > 0)
          .map((spec) => wrap(def, x, () => parseTaintSpec(spec))),
      );
    case 'headers': {
      const headers: Record<string, string[]> = {};
      for (const x of values) {
        for (const pair of x.split(',').filter((s) => s.length > 0)) {
          const colon = pair.indexOf(':');
          if (colon < 0) throw new FlagError(`invalid argument ${JSON.stringify(x)} for "--${def.name}" flag: malformed pair, expect string:string`);
          const key = pair.slice(0, colon).trim();
          (headers[key] ??= []).push(pair.slice(colon + 1).trim());
        }
      }
      return headers;
    }
  }
}

/** The KubeletConfiguration document the config-backed flags given amount to (nested by dotted field). */
export function flagConfigDoc(values: FlagValues): Record<string, unknown> {
  const doc: Record<string, unknown> = {};
  for (const [name, list] of values) {
    const def = flagNamed(name);
    if (!def?.config) continue;
    const path = def.config.split('.');
    let at = doc;
    for (const p of path.slice(0, -1)) at = (at[p] ??= {}) as Record<string, unknown>;
    at[path[path.length - 1] as string] = flagValue(def, list);
  }
  return doc;
}

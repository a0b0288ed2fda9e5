/**
 * kube 1.33's feature gates and --feature-gates applied to them, as component-base's featuregate
 * and kube-apiserver's component registry do: "Name=bool" pairs, comma-separated, the flag given
 * any number of times (later values win), each pair optionally prefixed with its component
 * ("kube:Name=true"); AllAlpha/AllBeta set every alpha/beta gate not set explicitly; a locked gate
 * set against its lock, an unknown gate and a value that is not a Go bool are refused with kube's
 * messages; setting a GA or deprecated gate warns as kube logs it.
 */
import type { FeatureGates, FeatureSpec } from './interface.js';
import { kube133FeatureGates } from './kube-1.33-gates.js';

/** kube's component name for its own gates (the default when a pair names none). */
export const kubeComponent = 'kube';

/** Every gate kube-apiserver 1.33 knows, AllAlpha and AllBeta included (component-base adds them to every gate set). */
export const knownFeatureGates: Readonly<Record<string, FeatureSpec>> = {
  AllAlpha: { preRelease: 'ALPHA', default: false, lockToDefault: false },
  AllBeta: { preRelease: 'BETA', default: false, lockToDefault: false },
  ...kube133FeatureGates,
};

/** A --feature-gates value kube refuses; message is kube's. */
export class FeatureGateError extends Error {}

/** The gates in effect, with what was set explicitly and the warnings setting them logged. */
export class FeatureGateSet implements FeatureGates {
  private readonly values = new Map<string, boolean>();

  /** explicit: the gates --feature-gates named (AllAlpha/AllBeta expanded), applied over the defaults. */
  constructor(
    private readonly explicit: ReadonlyMap<string, boolean> = new Map(),
    /** What kube logs at startup for the values given (GA and deprecated gates set). */
    readonly warnings: readonly string[] = [],
  ) {
    for (const [name, spec] of Object.entries(knownFeatureGates)) this.values.set(name, explicit.get(name) ?? spec.default);
  }

  /** Whether the named gate is on; throws for a name that is not a gate of kube 1.33 (a programming error). */
  enabled(name: string): boolean {
    const v = this.values.get(name);
    if (v === undefined) throw new Error(`feature "${name}" is not registered in FeatureGate`);
    return v;
  }

  /** Whether --feature-gates set the gate (directly or through AllAlpha/AllBeta). */
  explicitlySet(name: string): boolean {
    return this.explicit.has(name);
  }

  /** Every known gate with its stage and whether it is on, in name order (the kubernetes_feature_enabled series). */
  all(): Array<{ name: string; stage: FeatureSpec['preRelease']; enabled: boolean }> {
    return Object.keys(knownFeatureGates)
      .sort()
      .map((name) => ({ name, stage: (knownFeatureGates[name] as FeatureSpec).preRelease, enabled: this.values.get(name) as boolean }));
  }
}

/** kube 1.33's defaults, nothing set: what every reader uses when the server was given no --feature-gates. */
export const defaultFeatureGates: FeatureGateSet = new FeatureGateSet();

const goTrue = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const goFalse = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

/** Go's strconv.ParseBool, as featuregate parses a gate's value. */
function parseGoBool(name: string, value: string): boolean {
  if (goTrue.has(value)) return true;
  if (goFalse.has(value)) return false;
  throw new FeatureGateError(`invalid value of ${name}=${value}, err: strconv.ParseBool: parsing ${JSON.stringify(value)}: invalid syntax`);
}

/** Go's utilerrors.NewAggregate(...).Error(): one message alone, several in brackets. */
function aggregate(messages: readonly string[]): string {
  return messages.length === 1 ? (messages[0] as string) : `[${messages.join(', ')}]`;
}

/**
 * Splits the --feature-gates occurrences into the kube component's "Name=value" pairs (the
 * registry's colon-separated multimap: a pair without "component:" is kube's). Throws
 * FeatureGateError for another component, which kube-apiserver does not register.
 */
function kubePairs(occurrences: readonly string[]): string[] {
  const pairs: string[] = [];
  for (const occurrence of occurrences) {
    for (const pair of occurrence.split(',')) {
      if (pair.length === 0) continue;
      const colon = pair.indexOf(':');
      const component = colon < 0 ? '' : pair.slice(0, colon).trim();
      const value = colon < 0 ? pair.trim() : pair.slice(colon + 1).trim();
      if (component !== '' && component !== kubeComponent) throw new FeatureGateError(`component not registered: ${component}`);
      pairs.push(value);
    }
  }
  return pairs;
}

/**
 * Applies --feature-gates (every occurrence of the flag, in order) to kube 1.33's defaults; throws
 * FeatureGateError with kube's message for a malformed pair, an unknown gate or a locked gate set
 * against its lock.
 */
export function parseFeatureGates(occurrences: readonly string[]): FeatureGateSet {
  // featuregate.Set: a map, so a later value of the same gate replaces an earlier one.
  const requested = new Map<string, boolean>();
  for (const pair of kubePairs(occurrences)) {
    const eq = pair.indexOf('=');
    const name = (eq < 0 ? pair : pair.slice(0, eq)).trim();
    if (eq < 0) throw new FeatureGateError(`missing bool value for ${name}`);
    requested.delete(name);
    requested.set(name, parseGoBool(name, pair.slice(eq + 1).trim()));
  }
  const explicit = new Map<string, boolean>();
  const errors: string[] = [];
  const warnings: string[] = [];
  const special: Array<[string, boolean]> = [];
  for (const [name, value] of requested) {
    const spec = knownFeatureGates[name];
    // kube stops at the first unknown gate.
    if (!spec) throw new FeatureGateError(aggregate([...errors, `unrecognized feature gate: ${name}`]));
    if (spec.lockToDefault && spec.default !== value) {
      errors.push(`cannot set feature gate ${name} to ${value}, feature is locked to ${spec.default}`);
      continue;
    }
    explicit.set(name, value);
    if (name === 'AllAlpha' || name === 'AllBeta') special.push([name, value]);
    else if (spec.preRelease === 'DEPRECATED') warnings.push(`Setting deprecated feature gate ${name}=${value}. It will be removed in a future release.`);
    else if (spec.preRelease === '') warnings.push(`Setting GA feature gate ${name}=${value}. It will be removed in a future release.`);
  }
  if (errors.length > 0) throw new FeatureGateError(aggregate(errors));
  // AllAlpha/AllBeta fill in the gates of their stage that were not named themselves.
  for (const [gate, value] of special) {
    const stage = gate === 'AllAlpha' ? 'ALPHA' : 'BETA';
    for (const [name, spec] of Object.entries(kube133FeatureGates)) {
      if (spec.preRelease === stage && !requested.has(name)) explicit.set(name, value);
    }
  }
  return new FeatureGateSet(explicit, warnings);
}

/**
 * The gates --help lists, as component-base's KnownFeatures prints them under the registry's
 * "kube:" prefix: AllAlpha, AllBeta and every alpha and beta gate (GA and deprecated ones are
 * hidden), "kube:Name=true|false (STAGE - default=bool)", in byte order.
 */
export function knownFeatureLines(): string[] {
  const lines: string[] = [];
  for (const [name, spec] of Object.entries(knownFeatureGates)) {
    if (spec.preRelease !== 'ALPHA' && spec.preRelease !== 'BETA') continue;
    lines.push(`${kubeComponent}:${name}=true|false (${spec.preRelease} - default=${spec.default})`);
  }
  return lines.sort();
}

/** kube-apiserver 1.33's help text for --feature-gates (component-base's registry flag). */
export function featureGatesHelp(): string {
  return (
    'Comma-separated list of component:key=value pairs that describe feature gates for alpha/experimental features of different components.\n' +
    'If the component is not specified, defaults to "kube". This flag can be repeatedly invoked. For example: --feature-gates \'wardle:featureA=true,wardle:featureB=false\' --feature-gates \'kube:featureC=true\'' +
    'Options are:\n' +
    knownFeatureLines().join('\n')
  );
}

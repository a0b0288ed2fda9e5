/**
 * Label selectors with kube's semantics (k8s.io/apimachinery v0.33 pkg/labels): parsing with
 * kube's error texts, canonical String(), matching and exact-match introspection. Selectors are
 * immutable; parse once, then call matches() on the hot path — it allocates nothing.
 */
import type { FieldPath } from '../validation/field-error.js';
import { compareByteOrder } from './byte-order.js';
import { parseLabelRequirements } from './label-parser.js';
import {
  type LabelOperator,
  type LabelRequirement,
  labelRequirementToString,
  newLabelRequirement,
  parseGoInt64,
} from './label-requirement.js';

export type { LabelOperator, LabelRequirement } from './label-requirement.js';
export {
  binaryLabelOperators,
  labelRequirementToString,
  newLabelRequirement,
  validLabelOperators,
  validateLabelRequirement,
} from './label-requirement.js';
export { SelectorParseError } from './selector-parse-error.js';

/** A parsed label selector. Immutable and safe to share between watchers. */
export interface LabelSelector {
  /** The requirements, ANDed; for a parsed selector sorted by key. */
  readonly requirements: readonly LabelRequirement[];
  /** True when the selector does not restrict anything (selects everything). */
  empty(): boolean;
  /** Whether an object with these labels is selected; `undefined` counts as no labels. Allocation-free. */
  matches(labels: Readonly<Record<string, string>> | undefined): boolean;
  /** kube's canonical String() (sorted values, no spaces except around in/notin). */
  toString(): string;
  /** The value the selector requires for key (via =, == or a one-value in), if it requires one. */
  requiresExactMatch(key: string): string | undefined;
  /** Selector.Add: a new selector with the extra requirements, re-sorted by key; the receiver is unchanged. */
  add(...requirements: LabelRequirement[]): LabelSelector;
}

const noLabels: Readonly<Record<string, string>> = Object.freeze({});

// Operator codes so the hot loop switches on small integers.
const enum Op {
  Equals,
  NotEquals,
  Exists,
  DoesNotExist,
  GreaterThan,
  LessThan,
  Unknown,
}

interface CompiledRequirement {
  readonly key: string;
  readonly op: Op;
  readonly values: readonly string[];
  /** The parsed bound of gt/lt, or undefined when it is not one valid int64 (then nothing matches). */
  readonly bound: number | bigint | undefined;
}

function opCode(operator: LabelOperator): Op {
  switch (operator) {
    case '=':
    case '==':
    case 'in':
      return Op.Equals;
    case '!=':
    case 'notin':
      return Op.NotEquals;
    case 'exists':
      return Op.Exists;
    case '!':
      return Op.DoesNotExist;
    case 'gt':
      return Op.GreaterThan;
    case 'lt':
      return Op.LessThan;
    default:
      return Op.Unknown;
  }
}

function compile(r: LabelRequirement): CompiledRequirement {
  const op = opCode(r.operator);
  const bound = (op === Op.GreaterThan || op === Op.LessThan) && r.values.length === 1 ? parseGoInt64(r.values[0] as string) : undefined;
  return { key: r.key, op, values: r.values, bound };
}

function hasValue(values: readonly string[], value: string | undefined): boolean {
  for (let i = 0; i < values.length; i++) if (values[i] === value) return true;
  return false;
}

function matchesRequirement(r: CompiledRequirement, labels: Readonly<Record<string, string>>): boolean {
  const present = Object.hasOwn(labels, r.key);
  switch (r.op) {
    case Op.Equals:
      return present && hasValue(r.values, labels[r.key]);
    case Op.NotEquals:
      return !present || !hasValue(r.values, labels[r.key]);
    case Op.Exists:
      return present;
    case Op.DoesNotExist:
      return !present;
    case Op.GreaterThan:
    case Op.LessThan: {
      if (!present || r.bound === undefined) return false;
      const actual = parseGoInt64(labels[r.key] as string);
      if (actual === undefined) return false;
      return r.op === Op.GreaterThan ? actual > r.bound : actual < r.bound;
    }
    default:
      return false;
  }
}

/** The selector over a list of requirements (labels.internalSelector). */
class RequirementsSelector implements LabelSelector {
  readonly requirements: readonly LabelRequirement[];
  private readonly compiled: readonly CompiledRequirement[];
  private text: string | undefined;

  constructor(requirements: readonly LabelRequirement[]) {
    this.requirements = Object.freeze([...requirements]);
    this.compiled = this.requirements.map(compile);
  }

  empty(): boolean {
    return this.requirements.length === 0;
  }

  matches(labels: Readonly<Record<string, string>> | undefined): boolean {
    const ls = labels ?? noLabels;
    const compiled = this.compiled;
    for (let i = 0; i < compiled.length; i++) {
      if (!matchesRequirement(compiled[i] as CompiledRequirement, ls)) return false;
    }
    return true;
  }

  toString(): string {
    this.text ??= this.requirements.map(labelRequirementToString).join(',');
    return this.text;
  }

  requiresExactMatch(key: string): string | undefined {
    for (const r of this.requirements) {
      if (r.key !== key) continue;
      const exact = r.operator === '=' || r.operator === '==' || r.operator === 'in';
      return exact && r.values.length === 1 ? r.values[0] : undefined;
    }
    return undefined;
  }

  add(...requirements: LabelRequirement[]): LabelSelector {
    return new RequirementsSelector(sortByKey([...this.requirements, ...requirements]));
  }
}

/** labels.Nothing(): selects no object at all. */
class NothingSelector implements LabelSelector {
  readonly requirements: readonly LabelRequirement[] = Object.freeze([]);
  empty(): boolean {
    return false;
  }
  matches(): boolean {
    return false;
  }
  toString(): string {
    return '';
  }
  requiresExactMatch(): string | undefined {
    return undefined;
  }
  add(): LabelSelector {
    return this;
  }
}

function sortByKey(requirements: LabelRequirement[]): LabelRequirement[] {
  return requirements.sort((a, b) => compareByteOrder(a.key, b.key));
}

/** labels.Everything(): the empty selector, which selects every object. */
export const everythingLabels: LabelSelector = new RequirementsSelector([]);

/** labels.Nothing(): a selector that selects no object (what a nil metav1.LabelSelector converts to). */
export const nothingLabels: LabelSelector = new NothingSelector();

/**
 * labels.Parse: parses kube's selector syntax (`a=b,c!=d,e in (f,g),!h,i>3`). Throws
 * SelectorParseError carrying kube's message. `path` prefixes field errors (nil by default).
 */
export function parseLabelSelector(input: string, path?: FieldPath): LabelSelector {
  return new RequirementsSelector(parseLabelRequirements(input, path));
}

/**
 * labels.SelectorFromSet: a selector requiring each key to equal its value. Not validated, as in
 * kube; an empty set selects everything.
 */
export function labelSelectorFromSet(set: Readonly<Record<string, string>>): LabelSelector {
  const keys = Object.keys(set);
  if (keys.length === 0) return everythingLabels;
  return new RequirementsSelector(sortByKey(keys.map((key) => ({ key, operator: '=', values: [set[key] as string] }))));
}

/**
 * labels.ValidatedSelectorFromSet: like labelSelectorFromSet but each pair must be a valid label;
 * throws SelectorParseError for the first invalid pair (in key order).
 */
export function validatedLabelSelectorFromSet(set: Readonly<Record<string, string>>): LabelSelector {
  const keys = Object.keys(set).sort(compareByteOrder);
  if (keys.length === 0) return everythingLabels;
  return new RequirementsSelector(keys.map((key) => newLabelRequirement(key, '=', [set[key] as string])));
}

/**
 * A selector over the given requirements exactly as listed: no sorting, no validation (kube's
 * internalSelector literal). Use it for requirements already validated elsewhere.
 */
export function labelSelectorFromRequirements(requirements: readonly LabelRequirement[]): LabelSelector {
  return requirements.length === 0 ? everythingLabels : new RequirementsSelector(requirements);
}

/**
 * One label selector requirement (k8s.io/apimachinery v0.33 labels.Requirement): its
 * validation with kube's field errors, its canonical text and its match rule.
 */
import {
  type FieldError,
  type FieldPath,
  GoNilSlice,
  childPath,
  fieldErrorsMessage,
  indexPath,
  invalid,
  keyPath,
  notSupported,
} from '../validation/field-error.js';
import { isQualifiedName, isValidLabelValue } from '../validation/label-values.js';
import { sortedByteOrder } from './byte-order.js';
import { SelectorParseError } from './selector-parse-error.js';

/** The selection operators, spelled as selection.Operator values. */
export type LabelOperator = '=' | '==' | '!=' | 'in' | 'notin' | 'exists' | '!' | 'gt' | 'lt';

/** key, operator and values; values are as given (the parser hands them sorted and deduplicated). */
export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelOperator;
  readonly values: readonly string[];
}

/** The binary operators in kube's order, as named in the "expected:" parse error. */
export const binaryLabelOperators: readonly LabelOperator[] = ['in', 'notin', '=', '==', '!=', 'gt', 'lt'];
/** Every operator NewRequirement accepts, in kube's order (its NotSupported detail lists them so). */
export const validLabelOperators: readonly LabelOperator[] = [...binaryLabelOperators, 'exists', '!'];

const int64Max = 9223372036854775807n;
const int64Min = -9223372036854775808n;

/**
 * Parses a decimal integer as Go's strconv.ParseInt(s, 10, 64): optional sign, ASCII digits,
 * int64 range. Returns undefined when Go would fail. Allocation-free below 16 digits.
 */
export function parseGoInt64(s: string): number | bigint | undefined {
  const n = s.length;
  let i = 0;
  let negative = false;
  const first = s.charCodeAt(0);
  if (first === 0x2b || first === 0x2d) {
    negative = first === 0x2d;
    i = 1;
  }
  if (i >= n) return undefined;
  if (n - i <= 15) {
    let acc = 0;
    for (; i < n; i++) {
      const d = s.charCodeAt(i) - 0x30;
      if (d < 0 || d > 9) return undefined;
      acc = acc * 10 + d;
    }
    return negative ? -acc : acc;
  }
  for (let j = i; j < n; j++) {
    const d = s.charCodeAt(j) - 0x30;
    if (d < 0 || d > 9) return undefined;
  }
  const big = negative ? -BigInt(s.slice(i)) : BigInt(s.slice(i));
  return big > int64Max || big < int64Min ? undefined : big;
}

/** validateLabelKey: the key as a qualified name, one Invalid error joining every failure. */
export function validateLabelKey(key: string, path: FieldPath): FieldError | undefined {
  const errs = isQualifiedName(key);
  return errs.length > 0 ? invalid(path, key, errs.join('; ')) : undefined;
}

/**
 * NewRequirement's checks: key format, value count per operator, integer values for gt/lt,
 * label-value format of every value. `values === null` stands for a Go nil slice (it only
 * changes how the bad value renders). The path prefixes every field (nil by default).
 */
export function validateLabelRequirement(
  key: string,
  operator: string,
  values: readonly string[] | null,
  path?: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  const keyErr = validateLabelKey(key, childPath(path, 'key'));
  if (keyErr) errs.push(keyErr);
  const vals = values ?? [];
  const badValues = values === null ? new GoNilSlice() : [...values];
  const valuesPath = childPath(path, 'values');
  switch (operator) {
    case 'in':
    case 'notin':
      if (vals.length === 0) errs.push(invalid(valuesPath, badValues, "for 'in', 'notin' operators, values set can't be empty"));
      break;
    case '=':
    case '==':
    case '!=':
      if (vals.length !== 1) errs.push(invalid(valuesPath, badValues, 'exact-match compatibility requires one single value'));
      break;
    case 'exists':
    case '!':
      if (vals.length !== 0) errs.push(invalid(valuesPath, badValues, 'values set must be empty for exists and does not exist'));
      break;
    case 'gt':
    case 'lt':
      if (vals.length !== 1) errs.push(invalid(valuesPath, badValues, "for 'Gt', 'Lt' operators, exactly one value is required"));
      vals.forEach((v, i) => {
        if (parseGoInt64(v) === undefined) {
          errs.push(invalid(indexPath(valuesPath, i), v, "for 'Gt', 'Lt' operators, the value must be an integer"));
        }
      });
      break;
    default:
      errs.push(notSupported(childPath(path, 'operator'), operator, validLabelOperators));
  }
  vals.forEach((v, i) => {
    const msgs = isValidLabelValue(v);
    if (msgs.length > 0) errs.push(invalid(keyPath(indexPath(valuesPath, i), key), v, msgs.join('; ')));
  });
  return errs;
}

/**
 * labels.NewRequirement: validates and returns the requirement (values kept in the given order),
 * or throws SelectorParseError whose message is kube's aggregated error text.
 */
export function newLabelRequirement(
  key: string,
  operator: LabelOperator,
  values: readonly string[] | null,
  path?: FieldPath,
): LabelRequirement {
  const errs = validateLabelRequirement(key, operator, values, path);
  if (errs.length > 0) throw new SelectorParseError(fieldErrorsMessage(errs), errs);
  return { key, operator, values: [...(values ?? [])] };
}

/** Requirement.String(): kube's canonical text (`x in (a,b)`, `!x`, `x>1`); multiple values print sorted. */
export function labelRequirementToString(r: LabelRequirement): string {
  let out = r.operator === '!' ? `!${r.key}` : r.key;
  switch (r.operator) {
    case '=':
    case '==':
    case '!=':
      out += r.operator;
      break;
    case 'in':
    case 'notin':
      out += ` ${r.operator} `;
      break;
    case 'gt':
      out += '>';
      break;
    case 'lt':
      out += '<';
      break;
    case 'exists':
    case '!':
      return out;
  }
  const values = r.values.length === 1 ? (r.values[0] as string) : sortedByteOrder(r.values).join(',');
  return r.operator === 'in' || r.operator === 'notin' ? `${out}(${values})` : out + values;
}

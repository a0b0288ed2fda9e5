/**
 * The shapes of the CEL rule machinery of a CRD schema: a node's CEL type, a compiled rule, the
 * validator tree and the state one validation carries, and where ratcheting stands.
 */
import type { StaticType } from '../../cel/cost-estimate.js';
import type { CompiledExpression } from '../../cel/expression.js';
import type { FieldError } from '../../validation/field-error.js';
import type { JSONSchemaProps, ValidationRule } from '../interface.js';
import type { Correlation } from './correlation.js';

/** A node's CEL type, with what value conversion needs. */
export interface DeclType extends StaticType {
  readonly elem?: DeclType;
  readonly fields?: ReadonlyMap<string, DeclType>;
  /** Object properties by their JSON names. */
  readonly props?: ReadonlyMap<string, DeclType>;
  /** String formats converted to other CEL types. */
  readonly format?: 'byte' | 'duration' | 'date' | 'date-time';
  /** The smallest serialized size of a value (for kube's size estimates). */
  readonly minSerializedSize: number;
  /** x-kubernetes-list-type set or map (lists compare as kube compares them), with the map keys. */
  readonly listType?: 'set' | 'map';
  readonly mapKeys?: readonly string[];
  /** Metadata at a resource root: only name and generateName are visible. */
  readonly metadataOnly?: boolean;
}

/** One rule compiled. A rule with neither program nor error is empty and never runs. */
export interface CompiledRule {
  readonly rule: ValidationRule;
  readonly program?: CompiledExpression;
  /** kube's compile error; required: the rule is missing (Required rather than Invalid). */
  readonly error?: { readonly detail: string; readonly required?: boolean };
  /** A transition rule: it references oldSelf. */
  readonly usesOldSelf: boolean;
  /** The fieldPath resolved ("spec.x"); '' when absent or not valid. */
  readonly normalizedFieldPath: string;
  /** Estimated worst-case cost of one evaluation. */
  readonly maxCost: number;
  readonly messageExpression?: CompiledExpression;
  readonly messageExpressionError?: string;
  readonly messageExpressionMaxCost: number;
}

/** One schema node holding rules or leading to them. */
export interface ValidatorNode {
  readonly schema: JSONSchemaProps;
  readonly decl: DeclType | undefined;
  readonly rules: readonly CompiledRule[];
  /** kube's "rule compiler initialization error" (rules on a node with no CEL type). */
  readonly compileError?: string;
  readonly usesOldSelf: boolean;
  readonly items?: ValidatorNode;
  readonly additionalProperties?: ValidatorNode;
  readonly properties?: ReadonlyMap<string, ValidatorNode>;
  readonly allOf?: readonly ValidatorNode[];
}

/** What one validation carries down the walk. */
export interface WalkState {
  budget: number;
  /** The cost limit of each evaluation (kube's PerCallLimit). */
  readonly perCallLimit: number;
  readonly errors: FieldError[];
}

/** Cost limits of one validation (kube's; tests lower them). */
export interface CostLimits {
  readonly budget: number;
  readonly perCallLimit: number;
}

/** Where ratcheting stands at a node (kube's ratchetingOptions). */
export interface Ratcheting {
  readonly current?: Correlation;
  /** The nearest correlatable ancestor, consulted when the node itself does not correlate. */
  readonly nearestParent?: Correlation;
}

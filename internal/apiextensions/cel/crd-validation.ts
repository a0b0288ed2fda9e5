/**
 * CRD write-time checks of x-kubernetes-validations (the CEL part of kube's validateOpenAPISchema):
 * each rule's message, messageExpression, reason and fieldPath, then, where the schema below
 * had no such error, compilation against the node's type, transition rules where old values do
 * not correlate, and kube's static cost limits: a rule's estimated cost times how many times it
 * can run (the product of the enclosing lists' and maps' largest sizes) against
 * StaticEstimatedCostLimit, and the sum over the schema against StaticEstimatedCRDCostLimit.
 */
import { goQuote, GoLiteral, forbidden, internalError, invalid, notSupported, required, type FieldError } from '../../validation/field-error.js';
import type { JSONSchemaProps, ValidationRule } from '../interface.js';
import { compileRules } from './compile.js';
import { schemaDeclType } from './decl-type.js';
import { validFieldPath } from './field-path.js';
import type { DeclType } from './interface.js';

/** kube's StaticEstimatedCostLimit (one rule). */
export const staticEstimatedCostLimit = 10_000_000;
/** kube's StaticEstimatedCRDCostLimit (every rule of a schema). */
export const staticEstimatedCrdCostLimit = 100_000_000;
const supportedReasons = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];

/** kube's getCostErrorMessage. */
export function costErrorMessage(costName: string, cost: number, limit: number): string {
  const factor = cost / limit;
  const text = factor > 100 ? 'more than 100x' : factor < 1.5 ? `${factor.toFixed(6)}x` : `${factor.toFixed(1)}x`;
  return `${costName} exceeds budget by factor of ${text} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

/** A ValidationRule as Go's %#v prints kube's internal type (the bad value of a compile error). */
function goValidationRule(r: ValidationRule): GoLiteral {
  const ptr = (type: string, set: boolean) => `(*${type})(${set ? '0xc000000000' : 'nil'})`;
  return new GoLiteral(
    `apiextensions.ValidationRule{Rule:${goQuote(r.rule ?? '')}, Message:${goQuote(r.message ?? '')}, MessageExpression:${goQuote(r.messageExpression ?? '')}, ` +
      `Reason:${ptr('apiextensions.FieldValueErrorReason', r.reason !== undefined)}, FieldPath:${goQuote(r.fieldPath ?? '')}, OptionalOldSelf:${ptr('bool', r.optionalOldSelf !== undefined)}}`,
  );
}

interface Context {
  readonly errors: FieldError[];
  total: number;
  readonly mostExpensive: { path: string; cost: number }[];
  readonly preexistingRules: ReadonlySet<string>;
  readonly preexistingMessageExpressions: ReadonlySet<string>;
}

function observe(ctx: Context, path: string, cost: number): void {
  ctx.total += cost;
  if (cost < staticEstimatedCrdCostLimit / 100) return;
  ctx.mostExpensive.push({ path, cost });
  ctx.mostExpensive.sort((a, b) => b.cost - a.cost);
  if (ctx.mostExpensive.length > 4) ctx.mostExpensive.length = 4;
}

const hasNewlines = (s: string) => /[\n\r]/.test(s);

/** The per-rule checks that need no compilation; returns how many errors they found. */
function ruleFieldErrors(s: JSONSchemaProps, path: string, errors: FieldError[]): number {
  const before = errors.length;
  (s['x-kubernetes-validations'] ?? []).forEach((rule, i) => {
    const at = `${path}.x-kubernetes-validations[${i}]`;
    const trimmedRule = (rule.rule ?? '').trim();
    const message = rule.message ?? '';
    const trimmedMsg = message.trim();
    if (trimmedRule === '') errors.push(required(`${at}.rule`, 'rule is not specified'));
    else if (message.length > 0 && trimmedMsg.length === 0) errors.push(invalid(`${at}.message`, message, 'message must be non-empty if specified'));
    else if (message.length > 2048) errors.push(invalid(`${at}.message`, `${message.slice(0, 10)}...`, 'message must have a maximum length of 2048 characters'));
    else if (hasNewlines(trimmedMsg)) errors.push(invalid(`${at}.message`, message, 'message must not contain line breaks'));
    else if (hasNewlines(trimmedRule) && trimmedMsg.length === 0) errors.push(required(`${at}.message`, 'message must be specified if rule contains line breaks'));
    if (rule.messageExpression !== undefined && rule.messageExpression.length > 0 && rule.messageExpression.trim().length === 0) {
      errors.push(required(`${at}.messageExpression`, 'messageExpression must be non-empty if specified'));
    }
    if (rule.reason !== undefined && !supportedReasons.includes(rule.reason)) errors.push(notSupported(`${at}.reason`, rule.reason, supportedReasons));
    const fp = rule.fieldPath ?? '';
    if (fp.length > 0 && fp.trim().length === 0) errors.push(invalid(`${at}.fieldPath`, fp, 'fieldPath must be non-empty if specified'));
    if (hasNewlines(fp)) errors.push(invalid(`${at}.fieldPath`, fp, 'fieldPath must not contain line breaks'));
    if (fp.length > 0) {
      const r = validFieldPath(fp, s);
      if ('error' in r) errors.push(invalid(`${at}.fieldPath`, fp, `fieldPath must be a valid path: ${r.error}`));
    }
  });
  return errors.length - before;
}

/** The CEL checks of one node's rules (cardinality: how many times they can run per object). */
function compileChecks(s: JSONSchemaProps, path: string, decl: DeclType | undefined, cardinality: number, uncorrelatable: string | undefined, ctx: Context): void {
  const rules = s['x-kubernetes-validations'] ?? [];
  if (!decl) {
    const msg = `rule declared on schema that does not support validation rules type: '${s.type ?? ''}' x-kubernetes-preserve-unknown-fields: '${s['x-kubernetes-preserve-unknown-fields'] === true}'`;
    ctx.errors.push(internalError(`${path}.x-kubernetes-validations`, new Error(msg)));
    return;
  }
  compileRules(rules, s, decl).forEach((cr, i) => {
    const at = `${path}.x-kubernetes-validations[${i}]`;
    const rule = rules[i]!;
    const cost = cr.maxCost * cardinality;
    if (cost > staticEstimatedCostLimit && !ctx.preexistingRules.has(rule.rule)) {
      ctx.errors.push(forbidden(`${at}.rule`, costErrorMessage('estimated rule cost', cost, staticEstimatedCostLimit)));
    }
    observe(ctx, `${at}.rule`, cost);
    if (cr.error) ctx.errors.push(cr.error.required ? required(`${at}.rule`, cr.error.detail) : invalid(`${at}.rule`, goValidationRule(rule), cr.error.detail));
    if (cr.messageExpressionError) {
      ctx.errors.push(invalid(`${at}.messageExpression`, goValidationRule(rule), cr.messageExpressionError));
    } else if (cr.messageExpression) {
      const mcost = cr.messageExpressionMaxCost * cardinality;
      if (mcost > staticEstimatedCostLimit && !ctx.preexistingMessageExpressions.has(rule.messageExpression ?? '')) {
        ctx.errors.push(forbidden(`${at}.messageExpression`, costErrorMessage('estimated messageExpression cost', mcost, staticEstimatedCostLimit)));
      }
      observe(ctx, `${at}.messageExpression`, mcost);
    }
    if (cr.usesOldSelf) {
      if (uncorrelatable !== undefined) {
        ctx.errors.push(invalid(`${at}.rule`, rule.rule, `oldSelf cannot be used on the uncorrelatable portion of the schema within ${uncorrelatable}`));
      }
    } else if (rule.optionalOldSelf !== undefined && !cr.error) {
      ctx.errors.push(invalid(`${at}.optionalOldSelf`, rule.optionalOldSelf, 'may not be set if rule does not use oldSelf'));
    }
  });
}

/** Visits s and its subtree; returns the number of rule field errors found there (they skip compilation above). */
function visit(s: JSONSchemaProps, path: string, decl: DeclType | undefined, cardinality: number, uncorrelatable: string | undefined, ctx: Context): number {
  let schemaErrors = 0;
  const childUncorrelatable = uncorrelatable ?? (s['x-kubernetes-map-type'] === 'atomic' ? path : undefined);
  const ap = s.additionalProperties;
  if (ap && typeof ap === 'object') {
    const elem = decl?.kind === 'map' ? decl.elem : schemaDeclType(ap, ap['x-kubernetes-embedded-resource'] === true);
    const size = decl?.kind === 'map' ? (decl.maxSize ?? 1) : 1;
    schemaErrors += visit(ap, `${path}.additionalProperties`, elem, cardinality * size, childUncorrelatable, ctx);
  }
  for (const [name, prop] of Object.entries(s.properties ?? {})) {
    const t = decl?.props?.get(name) ?? schemaDeclType(prop, prop['x-kubernetes-embedded-resource'] === true);
    schemaErrors += visit(prop, `${path}.properties[${name}]`, t, cardinality, childUncorrelatable, ctx);
  }
  if (s.items && !Array.isArray(s.items)) {
    const items = s.items as JSONSchemaProps;
    const elem = decl?.kind === 'list' ? decl.elem : schemaDeclType(items, items['x-kubernetes-embedded-resource'] === true);
    const size = decl?.kind === 'list' ? (decl.maxSize ?? 1) : 1;
    const itemsUncorrelatable = childUncorrelatable ?? (s['x-kubernetes-list-type'] !== 'map' ? path : undefined);
    schemaErrors += visit(items, `${path}.items`, elem, cardinality * size, itemsUncorrelatable, ctx);
  }
  if ((s['x-kubernetes-validations'] ?? []).length > 0) {
    schemaErrors += ruleFieldErrors(s, path, ctx.errors);
    if (schemaErrors === 0) compileChecks(s, path, decl, cardinality, uncorrelatable, ctx);
  }
  return schemaErrors;
}

function collectExpressions(s: JSONSchemaProps | undefined, rules: Set<string>, messages: Set<string>): void {
  if (!s) return;
  for (const r of s['x-kubernetes-validations'] ?? []) {
    rules.add(r.rule);
    if (r.messageExpression) messages.add(r.messageExpression);
  }
  for (const p of Object.values(s.properties ?? {})) collectExpressions(p, rules, messages);
  if (s.additionalProperties && typeof s.additionalProperties === 'object') collectExpressions(s.additionalProperties, rules, messages);
  if (s.items && !Array.isArray(s.items)) collectExpressions(s.items as JSONSchemaProps, rules, messages);
  for (const a of s.allOf ?? []) collectExpressions(a, rules, messages);
}

/** See index.ts: validateCrdCelRules. */
export function validateSchemaRules(schema: JSONSchemaProps, fieldPath: string, oldSchema?: JSONSchemaProps): FieldError[] {
  const preexistingRules = new Set<string>();
  const preexistingMessageExpressions = new Set<string>();
  collectExpressions(oldSchema, preexistingRules, preexistingMessageExpressions);
  const ctx: Context = { errors: [], total: 0, mostExpensive: [], preexistingRules, preexistingMessageExpressions };
  visit(schema, fieldPath, schemaDeclType(schema, true), 1, undefined, ctx);
  if (ctx.total > staticEstimatedCrdCostLimit) {
    for (const e of ctx.mostExpensive) ctx.errors.push(forbidden(e.path, 'contributed to estimated rule & messageExpression cost total exceeding cost limit for entire OpenAPIv3 schema'));
    ctx.errors.push(forbidden(fieldPath, costErrorMessage('x-kubernetes-validations estimated rule & messageExpression cost total for entire OpenAPIv3 schema', ctx.total, staticEstimatedCrdCostLimit)));
  }
  return ctx.errors;
}

/**
 * Compiles the webhooks of Validating- and MutatingWebhookConfigurations into accessors, and orders
 * them as kube does: configurations by name, webhooks in their order within each.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { CelCompileError, compileExpression } from '../../../cel/expression.js';
import { labelSelectorAsSelector, type LabelSelectorObject } from '../../../selectors/label-selector-object.js';
import { everythingLabels, type LabelSelector } from '../../../selectors/labels.js';
import type { CompiledCondition, WebhookAccessor, WebhookSpec } from './types.js';

/** The variables a webhook's matchConditions may use. */
export const matchConditionVariables = ['object', 'oldObject', 'request', 'authorizer'] as const;

function selector(value: unknown): LabelSelector {
  // Stored webhooks are defaulted to {}; an absent selector also selects everything.
  if (value === undefined || value === null) return everythingLabels;
  return labelSelectorAsSelector(value as LabelSelectorObject);
}

function compileCondition(name: string, expression: string): CompiledCondition {
  try {
    return { name, expression: compileExpression(expression, { variables: matchConditionVariables }) };
  } catch (err) {
    if (err instanceof CelCompileError) return { name, compileError: `compilation error: ${err.message}` };
    throw err;
  }
}

/** One webhook's accessor; index is its place in the configuration. */
export function compileWebhook(configurationName: string, spec: WebhookSpec, index: number): WebhookAccessor {
  let namespaceSelector = everythingLabels;
  let objectSelector = everythingLabels;
  let selectorError: string | undefined;
  try {
    namespaceSelector = selector(spec.namespaceSelector);
    objectSelector = selector(spec.objectSelector);
  } catch (err) {
    selectorError = (err as Error).message;
  }
  const versions = spec.admissionReviewVersions ?? ['v1'];
  const reviewVersion = versions.find((v) => v === 'v1' || v === 'v1beta1') === 'v1beta1' ? 'v1beta1' : 'v1';
  return {
    uid: `${configurationName}/${spec.name}/${index}`,
    configurationName,
    spec,
    name: spec.name,
    failOpen: spec.failurePolicy === 'Ignore',
    namespaceSelector,
    objectSelector,
    ...(selectorError ? { selectorError } : {}),
    conditions: (spec.matchConditions ?? []).map((c) => compileCondition(c.name, c.expression)),
    reviewVersion,
    timeoutSeconds: spec.timeoutSeconds ?? 10,
  };
}

/** Every webhook of the configurations, configurations sorted by name (kube's hook source order). */
export function compileConfigurations(configurations: Iterable<KubeObject>): WebhookAccessor[] {
  const sorted = [...configurations].sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : (a.metadata.name ?? '') > (b.metadata.name ?? '') ? 1 : 0));
  const out: WebhookAccessor[] = [];
  for (const c of sorted) {
    const hooks = (c as { webhooks?: WebhookSpec[] }).webhooks ?? [];
    hooks.forEach((h, i) => out.push(compileWebhook(c.metadata.name ?? '', h, i)));
  }
  return out;
}

/**
 * The ValidatingAdmissionPolicy status controller (kube's validatingadmissionpolicy-status
 * controller): for every policy whose status.observedGeneration is behind its generation, type
 * checks each expression against the schemas of the built-in kinds its matchConstraints name
 * exactly (and of its paramKind) and writes status.typeChecking.expressionWarnings and
 * status.observedGeneration. Rules with wildcards, and custom resources, are not type checked.
 */
import { generatedResources } from '../../../api/gen/resources.js';
import type { KubeObject } from '../../../api/meta/types.js';
import { schemaCheck, type SchemaType } from '../../cel/schema-check.js';
import type { InServerController, InServerControllerDeps } from '../../server/in-server-controllers.js';
import { ResourceClient } from '../resource-client.js';
import { kindType } from './schema-types.js';

const group = 'admissionregistration.k8s.io';
const resource = 'validatingadmissionpolicies';
/** kube checks at most this many kinds per policy. */
const maxKinds = 10;

type Json = Record<string, unknown>;
const list = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

interface Gvk {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/** The kinds a policy's rules name without wildcards. */
function matchedKinds(policy: KubeObject): Gvk[] {
  const out: Gvk[] = [];
  const seen = new Set<string>();
  for (const rule of list((policy.spec as Json | undefined)?.matchConstraints && ((policy.spec as Json).matchConstraints as Json).resourceRules)) {
    const groups = strs(rule.apiGroups);
    const versions = strs(rule.apiVersions);
    const resources = strs(rule.resources);
    if ([...groups, ...versions, ...resources].some((x) => x.includes('*'))) continue;
    for (const g of groups) for (const v of versions) for (const r of resources) {
      if (r.includes('/')) continue;
      const info = generatedResources.find((x) => x.group === g && x.version === v && x.resource === r);
      if (!info) continue;
      const key = `${g}/${v}/${info.kind}`;
      if (!seen.has(key)) {
        seen.add(key);
        out.push({ group: g, version: v, kind: info.kind });
      }
    }
  }
  return out.slice(0, maxKinds);
}

function gvkString(g: Gvk): string {
  return `${g.group ? `${g.group}/` : ''}${g.version}, Kind=${g.kind}`;
}

/** The expressions of a policy with their field paths. */
function expressions(policy: KubeObject): { path: string; expression: string }[] {
  const spec = (policy.spec ?? {}) as Json;
  const out: { path: string; expression: string }[] = [];
  list(spec.validations).forEach((v, i) => {
    if (typeof v.expression === 'string') out.push({ path: `spec.validations[${i}].expression`, expression: v.expression });
    if (typeof v.messageExpression === 'string') out.push({ path: `spec.validations[${i}].messageExpression`, expression: v.messageExpression });
  });
  list(spec.auditAnnotations).forEach((a, i) => {
    if (typeof a.valueExpression === 'string') out.push({ path: `spec.auditAnnotations[${i}].valueExpression`, expression: a.valueExpression });
  });
  list(spec.matchConditions).forEach((c, i) => {
    if (typeof c.expression === 'string') out.push({ path: `spec.matchConditions[${i}].expression`, expression: c.expression });
  });
  list(spec.variables).forEach((v, i) => {
    if (typeof v.expression === 'string') out.push({ path: `spec.variables[${i}].expression`, expression: v.expression });
  });
  return out;
}

/** status.typeChecking.expressionWarnings of a policy. */
export function typeCheckPolicy(policy: KubeObject): { fieldRef: string; warning: string }[] {
  const kinds = matchedKinds(policy);
  const pk = (policy.spec as Json | undefined)?.paramKind as { apiVersion?: string; kind?: string } | undefined;
  let paramType: SchemaType | undefined;
  if (pk?.apiVersion && pk.kind) {
    const slash = pk.apiVersion.indexOf('/');
    paramType = kindType(slash < 0 ? '' : pk.apiVersion.slice(0, slash), slash < 0 ? pk.apiVersion : pk.apiVersion.slice(slash + 1), pk.kind);
  }
  const warnings: { fieldRef: string; warning: string }[] = [];
  for (const { path, expression } of expressions(policy)) {
    const results: string[] = [];
    for (const gvk of kinds) {
      const t = kindType(gvk.group, gvk.version, gvk.kind);
      if (!t) continue;
      const vars = new Map<string, SchemaType>([['object', t], ['oldObject', t]]);
      if (paramType) vars.set('params', paramType);
      const issues = schemaCheck(expression, vars);
      if (issues.length) results.push(`${gvkString(gvk)}: ${issues.join('\n')}`);
    }
    if (results.length) warnings.push({ fieldRef: path, warning: results.join('\n') });
  }
  return warnings;
}

/** The controller, started with the server. */
export const admissionPolicyStatusController: InServerController = {
  name: 'validatingadmissionpolicy-status-controller',
  controllerManagerAlias: 'validatingadmissionpolicy-status',
  start(deps: InServerControllerDeps) {
    const storage = deps.storageOf(group, resource, 'status');
    if (!storage) return () => undefined;
    const client = new ResourceClient(storage, group, resource);
    const informer = deps.informers.get(group, resource);
    const queue = new Set<string>();
    let running = false;
    const drain = async (): Promise<void> => {
      if (running) return;
      running = true;
      try {
        while (queue.size && !deps.shutdown.aborted) {
          const name = queue.values().next().value as string;
          queue.delete(name);
          const current = informer.get(name);
          if (!current || (current.status as Json | undefined)?.observedGeneration === current.metadata.generation) continue;
          try {
            await client.update(name, '', (obj) => {
              const generation = obj.metadata.generation;
              obj.status = { ...((obj.status as Json | undefined) ?? {}), observedGeneration: generation, typeChecking: { expressionWarnings: typeCheckPolicy(obj) } };
              const tc = (obj.status as Json).typeChecking as { expressionWarnings: unknown[] };
              if (tc.expressionWarnings.length === 0) (obj.status as Json).typeChecking = {};
              return obj;
            });
          } catch (err) {
            deps.log.info(`validatingadmissionpolicy-status: ${name}: ${(err as Error).message}`);
          }
        }
      } finally {
        running = false;
      }
    };
    const enqueue = (obj: KubeObject) => {
      queue.add(obj.metadata.name ?? '');
      void drain();
    };
    informer.addHandlers({ added: enqueue, updated: enqueue });
    return () => queue.clear();
  },
};

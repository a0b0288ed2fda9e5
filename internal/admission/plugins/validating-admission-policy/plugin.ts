/**
 * ValidatingAdmissionPolicy (kube's admission plugin of that name, admissionregistration.k8s.io/v1):
 * every policy that has bindings and matches the request is evaluated for each matching binding
 * and each of its params; failed validations deny (422 Invalid unless the validation's reason says
 * otherwise), warn (a Warning header) or audit (the validation_failure audit annotation) as the
 * binding's validationActions say, and the request is refused with the first denial, in kube's
 * words. Requests no policy is bound for cost one array read.
 */
import { randomUUID } from 'node:crypto';
import { newForbidden } from '../../../apierrors/factories.js';
import { StatusError, type StatusReason } from '../../../apierrors/status-error.js';
import { qualifiedResource, type KubeObject } from '../../../../api/meta/types.js';
import type { Authorizer } from '../../../authz/interface.js';
import type { AuthzBinding } from '../../../cel/expression.js';
import { authorizerValue } from '../../../cel/library/authz.js';
import type { SharedInformers } from '../../../controllers/shared-informers.js';
import { addWarning, type RequestContext } from '../../../request/context.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin } from '../../interface.js';
import { matches } from './match.js';
import type { PolicyMetrics } from './metrics.js';
import { collectParams, resolveParamKind, type ParamRef } from './params.js';
import type { CompiledBinding, PolicySource } from './policy-source.js';
import { admissionRequest, namespaceObject } from './request.js';
import { validate, type Decision, type ErrorType } from './validator.js';

const exemptResources = new Set([
  'validatingwebhookconfigurations',
  'mutatingwebhookconfigurations',
  'validatingadmissionpolicies',
  'validatingadmissionpolicybindings',
  'mutatingadmissionpolicies',
  'mutatingadmissionpolicybindings',
]);

const readyTimeoutMs = 10_000;

/** The name admission.NewForbidden puts in its message: the request's, else the object's name or generateName, else Unknown. */
function requestName(attrs: AdmissionAttributes): string {
  return attrs.name || attrs.object?.metadata.name || attrs.object?.metadata.generateName || 'Unknown';
}

const validationFailureKey = 'validation.policy.admission.k8s.io/validation_failure';
const maxAuditAnnotationValueLength = 10 * 1024;

function reasonToCode(reason: string): number {
  switch (reason) {
    case 'Forbidden':
      return 403;
    case 'Unauthorized':
      return 401;
    case 'RequestEntityTooLarge':
      return 413;
    case 'Invalid':
      return 422;
    default:
      return 500;
  }
}

interface Denial {
  readonly policy: string;
  readonly binding: string | undefined;
  readonly message: string;
  readonly reason: string;
}

/** What the plugin reads. */
export interface PluginDeps {
  readonly source: PolicySource;
  readonly informers: SharedInformers;
  readonly authorizer: () => Authorizer;
  readonly metrics: PolicyMetrics;
  /** Reads a namespace the informer does not have yet (just created), as kube's matcher falls back to a live GET. */
  readonly getNamespace?: (name: string) => Promise<KubeObject | undefined>;
}

/** The ValidatingAdmissionPolicy plugin. */
export class ValidatingAdmissionPolicyPlugin implements AdmissionPlugin {
  readonly name = 'ValidatingAdmissionPolicy';
  private synced = false;

  constructor(private readonly deps: PluginDeps) {}

  handles(_operation: AdmissionOperation): boolean {
    return true;
  }

  async validate(attrs: AdmissionAttributes, ctx: RequestContext): Promise<void> {
    if (!this.synced) {
      // kube waits up to 10 s for its informers, then refuses rather than admit unchecked.
      let timer: NodeJS.Timeout | undefined;
      const ready = await Promise.race([this.deps.source.synced.then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), readyTimeoutMs)))]);
      clearTimeout(timer);
      if (!ready) throw newForbidden({ group: attrs.group, resource: attrs.resource }, requestName(attrs), 'not yet ready to handle request');
      this.synced = true;
    }
    const hooks = this.deps.source.hooks();
    if (hooks.length === 0) return;
    if (attrs.group === 'admissionregistration.k8s.io' && exemptResources.has(attrs.resource)) return;

    const denials: Denial[] = [];
    const namespaces = this.deps.informers.get('', 'namespaces');
    let namespace = attrs.namespace ? namespaces.get(attrs.namespace) : undefined;
    if (attrs.namespace && !namespace && this.deps.getNamespace) namespace = await this.deps.getNamespace(attrs.namespace);
    const nsLabels = (name: string) => (name === attrs.namespace ? namespace : namespaces.get(name))?.metadata.labels as Record<string, string> | undefined;
    let authz: AuthzBinding | undefined;
    let request: Record<string, unknown> | undefined;

    for (const { policy, bindings } of hooks) {
      if (policy.configError !== undefined) {
        this.configError(denials, policy.name, policy.failurePolicy, undefined, policy.configError);
        continue;
      }
      if (!policy.match || !matches(policy.match, attrs, nsLabels)) continue;
      const paramKind = policy.paramKind ? resolveParamKind(policy.paramKind.apiVersion, policy.paramKind.kind, this.deps.informers) : undefined;
      if (policy.paramKind && !paramKind) {
        this.configError(denials, policy.name, policy.failurePolicy, undefined, `failed to find resource referenced by paramKind: '${policy.paramKind.apiVersion}, Kind=${policy.paramKind.kind}'`);
        continue;
      }
      const annotations = new Map<string, string[]>();
      for (const b of bindings) {
        if (b.matchError !== undefined) {
          this.configError(denials, policy.name, policy.failurePolicy, b.name, b.matchError);
          continue;
        }
        if (b.match && !matches(b.match, attrs, nsLabels)) continue;
        let params;
        try {
          params = await collectParams(paramKind, (b.binding.spec as { paramRef?: ParamRef }).paramRef, attrs.namespace, this.deps.informers);
        } catch (err) {
          this.configError(denials, policy.name, policy.failurePolicy, b.name, (err as Error).message);
          continue;
        }
        if (params.length === 0) continue;
        authz ??= { user: attrs.userInfo, authorize: (a) => this.deps.authorizer().authorize(a), decisions: new Map(), pending: new Map() };
        request ??= admissionRequest(attrs, randomUUID());
        const isNamespace = attrs.group === '' && attrs.resource === 'namespaces';
        const nsName = isNamespace ? '' : attrs.namespace;
        const base = {
          object: attrs.operation === 'DELETE' ? null : (attrs.object ?? null),
          oldObject: attrs.oldObject ?? null,
          request,
          namespaceObject: nsName ? namespaceObject(namespace) : null,
          authorizer: authorizerValue({ group: attrs.group, resource: attrs.resource, subresource: attrs.subresource, namespace: attrs.namespace, name: attrs.name || (attrs.object?.metadata.name ?? '') }),
        };
        for (const param of params) {
          const result = await validate(policy, { ...base, params: param }, authz);
          for (const d of result.decisions) this.dispatch(d, policy.name, b, attrs, ctx, denials);
          for (const a of result.auditAnnotations) {
            if (a.error !== undefined) {
              denials.push({ policy: policy.name, binding: b.name, message: a.error, reason: '' });
              this.deps.metrics.observe(policy.name, b.name, 'invalid_error', 'deny', a.elapsed);
            } else if (a.value !== undefined) {
              const values = annotations.get(a.key) ?? [];
              const value = a.value.slice(0, maxAuditAnnotationValueLength);
              if (!values.includes(value)) values.push(value);
              annotations.set(a.key, values);
            }
          }
        }
      }
      for (const [key, values] of annotations) attrs.addAnnotation(`${policy.name}/${key}`, values.join(', '));
    }

    if (denials.length === 0) return;
    const d = denials[0]!;
    const message = d.binding !== undefined
      ? `ValidatingAdmissionPolicy '${d.policy}' with binding '${d.binding}' denied request: ${d.message}`
      : `ValidatingAdmissionPolicy '${d.policy}' denied request: ${d.message}`;
    const name = requestName(attrs);
    const reason = d.reason || 'Invalid';
    const full = `${qualifiedResource(attrs.group, attrs.resource)} "${name}" is forbidden: ${message}`;
    throw new StatusError(reasonToCode(reason), reason as StatusReason, full, {
      name,
      ...(attrs.group ? { group: attrs.group } : {}),
      kind: attrs.resource,
      causes: [{ message }],
    });
  }

  private configError(denials: Denial[], policy: string, failurePolicy: string, binding: string | undefined, err: string): void {
    if (failurePolicy === 'Ignore') return;
    const message = failurePolicy === 'Fail' ? `failed to configure ${binding === undefined ? 'policy' : 'binding'}: ${err}` : `unrecognized failure policy: '${failurePolicy}'`;
    denials.push({ policy, binding, message, reason: '' });
  }

  private dispatch(d: Decision, policy: string, b: CompiledBinding, attrs: AdmissionAttributes, ctx: RequestContext, denials: Denial[]): void {
    const errorType: ErrorType = d.errorType;
    if (d.action === 'admit') {
      if (errorType !== 'no_error') this.deps.metrics.observe(policy, b.name, errorType, 'allow', d.elapsed);
      return;
    }
    for (const action of b.validationActions) {
      if (action === 'Deny') {
        denials.push({ policy, binding: b.name, message: d.message, reason: d.reason });
        this.deps.metrics.observe(policy, b.name, errorType, 'deny', d.elapsed);
      } else if (action === 'Audit') {
        const value = JSON.stringify([{ message: d.message, policy, binding: b.name, expressionIndex: Math.max(d.index, 0), validationActions: b.validationActions }]);
        attrs.addAnnotation(validationFailureKey, value);
        this.deps.metrics.observe(policy, b.name, errorType, 'audit', d.elapsed);
      } else if (action === 'Warn') {
        addWarning(ctx, `Validation failed for ValidatingAdmissionPolicy '${policy}' with binding '${b.name}': ${d.message}`);
        this.deps.metrics.observe(policy, b.name, errorType, 'warn', d.elapsed);
      }
    }
  }
}

/**
 * The Pod Security admission logic (kube's k8s.io/pod-security-admission/admission.Admission):
 * namespaces must carry valid policy labels, and raising a namespace's enforce level reports the
 * existing pods that would violate it; pods are checked against their namespace's enforce, audit
 * and warn policies; pod templates of workload resources against audit and warn only.
 * It decides; the plugin applies the decision (error, warnings, audit annotations).
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { newForbidden, newInternalError, newInvalid } from '../../../apierrors/factories.js';
import type { StatusError } from '../../../apierrors/status-error.js';
import { fieldErrorCause, fieldErrorsMessage, type FieldError } from '../../../validation/field-error.js';
import { compareLevels, fullyPrivileged, levelVersionString, policyToEvaluate, sameLevelVersion, type LevelVersion, type Policy } from './api.js';
import type { PodSecurityConfig } from './config.js';
import type { MetricAttributes, PodSecurityRecorder } from './metrics.js';
import { evaluatePodsInNamespace, exemptNamespaceWarning, type PodLister } from './namespace-pods.js';
import { aggregateCheckResults, forbiddenDetail, type AggregateCheckResult } from './policy/check.js';
import type { Evaluator } from './policy/evaluator.js';
import { extractPod, extractPodTemplate, type ExtractedPod } from './pod-spec-extractor.js';
import { isSignificantPodUpdate } from './significant-update.js';

/** What the admission logic needs of a request. */
export interface PodSecurityAttributes extends MetricAttributes {
  readonly namespace: string;
  readonly name: string;
  readonly kind: string;
  readonly object: KubeObject | undefined;
  readonly oldObject: KubeObject | undefined;
  readonly userName: string;
  /** Epoch ms by which the request must finish, if any. */
  readonly deadline?: number;
}

/** A decision: refuse with error, or admit; with warnings and audit annotations (keys without prefix). */
export interface Decision {
  readonly error?: StatusError;
  readonly warnings?: readonly string[];
  readonly annotations?: Readonly<Record<string, string>>;
}

/** Reads a namespace (from the informer, else storage); undefined when it does not exist. */
export type NamespaceGetter = (name: string) => Promise<KubeObject | undefined>;

const admit: Decision = Object.freeze({});
const exemptBy = (why: string): Decision => Object.freeze({ annotations: Object.freeze({ exempt: why }) });
const exemptUser = exemptBy('user');
const exemptNamespace = exemptBy('namespace');
const exemptRuntimeClass = exemptBy('runtimeClass');
const privilegedPolicy: Decision = Object.freeze({ annotations: Object.freeze({ 'enforce-policy': 'privileged:latest' }) });

// Subresources whose objects are not pods or cannot change a pod's spec.
const ignoredPodSubresources = new Set(['exec', 'attach', 'binding', 'eviction', 'log', 'portforward', 'proxy', 'status']);

/** The admission logic of one server. */
export class PodSecurityAdmission {
  constructor(
    private readonly config: PodSecurityConfig,
    private readonly evaluator: Evaluator,
    private readonly metrics: PodSecurityRecorder,
    private readonly getNamespace: NamespaceGetter,
    private readonly listPods: PodLister,
  ) {}

  /** The policy namespace labels select over the configured defaults. */
  policyFor(labels: Readonly<Record<string, string>> | undefined): { policy: Policy; errors: FieldError[] } {
    return policyToEvaluate(labels, this.config.defaults);
  }

  /** A namespace create or update. */
  async validateNamespace(a: PodSecurityAttributes): Promise<Decision> {
    if (a.subresource !== '' || !a.object) return admit;
    const labels = a.object.metadata.labels;
    const { policy, errors } = this.policyFor(labels);
    // kube's request namespace for a namespace object: its name on update, none on create.
    const requestNamespace = a.operation === 'UPDATE' ? a.name : '';
    if (a.operation === 'CREATE') {
      if (errors.length > 0) return { error: this.invalid(a, errors) };
      return this.exemptNamespaceDecision(requestNamespace, a.name, policy, labels) ?? admit;
    }
    const old = this.policyFor(a.oldObject?.metadata.labels);
    if (errors.length > 0 && (old.errors.length === 0 || fieldErrorsMessage(errors) !== fieldErrorsMessage(old.errors))) {
      return { error: this.invalid(a, errors) };
    }
    // Nothing to report when enforce did not change, was relaxed, or is privileged.
    if (sameLevelVersion(policy.enforce, old.policy.enforce) || policy.enforce.level === 'privileged') return admit;
    if (policy.enforce.version === old.policy.enforce.version && compareLevels(policy.enforce.level, old.policy.enforce.level) < 1) return admit;
    if (this.isExemptNamespace(requestNamespace)) return this.exemptNamespaceDecision(requestNamespace, a.name, policy, labels) ?? admit;
    const warnings = await evaluatePodsInNamespace(this.evaluator, this.config, this.listPods, a.name, policy.enforce, a.deadline);
    return warnings.length > 0 ? { warnings } : admit;
  }

  /** A pod create or update (including its subresources other than the ignored ones). */
  async validatePod(a: PodSecurityAttributes): Promise<Decision> {
    if (ignoredPodSubresources.has(a.subresource)) return admit;
    const exempt = this.exempt(a);
    if (exempt) return exempt;
    const ns = await this.namespaceOf(a, true);
    if ('error' in ns) return ns.error;
    const { policy, errors } = this.policyFor(ns.labels);
    if (errors.length === 0 && fullyPrivileged(policy)) {
      this.metrics.recordEvaluation('allow', policy.enforce, 'enforce', a);
      return privilegedPolicy;
    }
    if (!a.object) return admit;
    if (a.operation === 'UPDATE' && a.oldObject && !isSignificantPodUpdate(a.object, a.oldObject)) return admit;
    return this.evaluatePod(a, policy, errors, extractPod(a.object), true);
  }

  /** A create or update of a resource with a pod template: audit and warn only, never refused. */
  async validatePodController(a: PodSecurityAttributes): Promise<Decision> {
    if (a.subresource !== '') return admit;
    const exempt = this.exempt(a);
    if (exempt) return exempt;
    const ns = await this.namespaceOf(a, false);
    if ('error' in ns) return ns.error;
    const { policy, errors } = this.policyFor(ns.labels);
    if (errors.length === 0 && policy.warn.level === 'privileged' && policy.audit.level === 'privileged') return admit;
    if (!a.object) return admit;
    const pod = extractPodTemplate(a.group, a.resource, a.object);
    if (!pod) return admit;
    return this.evaluatePod(a, policy, errors, pod, false);
  }

  /** Checks one pod (or template) against the policy; enforce only for pods. */
  evaluatePod(a: PodSecurityAttributes, policy: Policy, policyErrors: readonly FieldError[], pod: ExtractedPod, enforce: boolean): Decision {
    const rc = pod.spec.runtimeClassName;
    if (rc && this.config.exemptRuntimeClasses.has(rc)) {
      this.metrics.recordExemption(a);
      return exemptRuntimeClass;
    }
    const annotations: Record<string, string> = {};
    if (policyErrors.length > 0) {
      annotations.error = `Failed to parse policy: ${fieldErrorsMessage(policyErrors)}`;
      this.metrics.recordError(false, a);
    }
    const results: Array<[LevelVersion, AggregateCheckResult]> = [];
    const evaluate = (lv: LevelVersion): AggregateCheckResult => {
      const cached = results.find(([k]) => sameLevelVersion(k, lv));
      if (cached) return cached[1];
      const r = aggregateCheckResults(this.evaluator.evaluatePod(lv, pod.meta, pod.spec));
      results.push([lv, r]);
      return r;
    };
    let error: StatusError | undefined;
    if (enforce) {
      annotations['enforce-policy'] = levelVersionString(policy.enforce);
      const r = evaluate(policy.enforce);
      if (!r.allowed) {
        error = newForbidden(
          { group: a.group, resource: a.resource },
          a.name,
          `violates PodSecurity "${levelVersionString(policy.enforce)}": ${forbiddenDetail(r)}`,
        );
      }
      this.metrics.recordEvaluation(r.allowed ? 'allow' : 'deny', policy.enforce, 'enforce', a);
    }
    const audit = evaluate(policy.audit);
    if (!audit.allowed) {
      annotations['audit-violations'] = `would violate PodSecurity "${levelVersionString(policy.audit)}": ${forbiddenDetail(audit)}`;
      this.metrics.recordEvaluation('deny', policy.audit, 'audit', a);
    }
    const warnings: string[] = [];
    // A refused request gets no warnings on top of its error.
    if (!error) {
      const warn = evaluate(policy.warn);
      if (!warn.allowed) {
        warnings.push(`would violate PodSecurity "${levelVersionString(policy.warn)}": ${forbiddenDetail(warn)}`);
        this.metrics.recordEvaluation('deny', policy.warn, 'warn', a);
      }
    }
    return { ...(error ? { error } : {}), ...(warnings.length > 0 ? { warnings } : {}), annotations };
  }

  private exempt(a: PodSecurityAttributes): Decision | undefined {
    if (this.isExemptNamespace(a.namespace)) {
      this.metrics.recordExemption(a);
      return exemptNamespace;
    }
    if (a.userName !== '' && this.config.exemptUsernames.has(a.userName)) {
      this.metrics.recordExemption(a);
      return exemptUser;
    }
    return undefined;
  }

  private isExemptNamespace(ns: string): boolean {
    return ns !== '' && this.config.exemptNamespaces.has(ns);
  }

  /** The namespace's labels; on a failed lookup, a pod is refused (500) and a template admitted. */
  private async namespaceOf(a: PodSecurityAttributes, fatal: boolean): Promise<{ labels: Record<string, string> | undefined } | { error: Decision }> {
    let err: string;
    try {
      const ns = await this.getNamespace(a.namespace);
      if (ns) return { labels: ns.metadata.labels };
      err = `namespaces "${a.namespace}" not found`;
    } catch (e) {
      err = (e as Error).message;
    }
    this.metrics.recordError(fatal, a);
    if (!fatal) return { error: { annotations: { error: `failed to lookup namespace "${a.namespace}": ${err}` } } };
    const status = newInternalError(`failed to lookup namespace "${a.namespace}"`);
    return { error: { error: status, annotations: { error: `${status.status.message}: ${err}` } } };
  }

  private exemptNamespaceDecision(requestNamespace: string, name: string, policy: Policy, labels: Record<string, string> | undefined): Decision | undefined {
    if (!this.isExemptNamespace(requestNamespace)) return undefined;
    const warning = exemptNamespaceWarning(name, policy, labels ?? {}, this.config.defaults);
    return warning ? { warnings: [warning] } : admit;
  }

  private invalid(a: PodSecurityAttributes, errors: readonly FieldError[]): StatusError {
    return newInvalid(a.group, a.kind || 'Namespace', a.name, errors.map(fieldErrorCause));
  }
}

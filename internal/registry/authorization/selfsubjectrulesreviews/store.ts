/**
 * The selfsubjectrulesreviews resource (authorization.k8s.io/v1, create only, nothing kept): what
 * the requester may do in spec.namespace, as the authorizers list it (`kubectl auth can-i --list`).
 * The rules are every mode's rules together; status.incomplete tells that some mode cannot list
 * what it would allow (webhooks, Node), evaluationError what went wrong while listing.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { newBadRequest, newInternalError } from '../../../apierrors/factories.js';
import type { NonResourceRuleInfo, ResourceRuleInfo, RuleResolver } from '../../../authz/interface.js';
import type { RequestContext } from '../../../request/context.js';
import type { RestStorage, ValidateObjectFunc, WriteOptions } from '../../interface.js';
import type { ResourceModule, SecurityHandles } from '../../registration.js';
import { prepareReviewRequest, reviewResponseMeta, reviewSelectableFields } from '../../shared/review-object.js';

/** ResourceRule as kube writes it: verbs always, the lists when not empty. */
function resourceRule(r: ResourceRuleInfo): Record<string, unknown> {
  return {
    verbs: [...r.verbs],
    ...(r.apiGroups && r.apiGroups.length > 0 ? { apiGroups: [...r.apiGroups] } : {}),
    ...(r.resources && r.resources.length > 0 ? { resources: [...r.resources] } : {}),
    ...(r.resourceNames && r.resourceNames.length > 0 ? { resourceNames: [...r.resourceNames] } : {}),
  };
}

function nonResourceRule(r: NonResourceRuleInfo): Record<string, unknown> {
  return { verbs: [...r.verbs], ...(r.nonResourceURLs && r.nonResourceURLs.length > 0 ? { nonResourceURLs: [...r.nonResourceURLs] } : {}) };
}

/** The SelfSubjectRulesReview storage. */
export class SelfSubjectRulesReviewStorage implements RestStorage {
  constructor(private readonly security: SecurityHandles | undefined) {}

  async create(ctx: RequestContext, obj: KubeObject, _opts: WriteOptions, validate?: ValidateObjectFunc): Promise<KubeObject> {
    prepareReviewRequest(ctx, obj, false);
    const namespace = (obj.spec as { namespace?: unknown } | undefined)?.namespace;
    if (typeof namespace !== 'string' || namespace === '') throw newBadRequest('no namespace on request');
    await validate?.(ctx, structuredClone(obj), undefined);
    const resolver = this.security?.authorization?.authorizer as RuleResolver | undefined;
    if (!resolver) throw newInternalError('no rule resolver is configured');
    const rules = await resolver.rulesFor(ctx.user, namespace);
    return {
      apiVersion: obj.apiVersion,
      kind: obj.kind,
      metadata: reviewResponseMeta({}),
      spec: {},
      status: {
        resourceRules: rules.resourceRules.map(resourceRule),
        nonResourceRules: rules.nonResourceRules.map(nonResourceRule),
        incomplete: rules.incomplete,
        ...(rules.evaluationError ? { evaluationError: rules.evaluationError } : {}),
      },
    };
  }
}

/** Registers selfsubjectrulesreviews. */
export const selfSubjectRulesReviewsModule: ResourceModule = (deps) => [
  {
    group: 'authorization.k8s.io',
    version: 'v1',
    resource: 'selfsubjectrulesreviews',
    namespaced: false,
    main: new SelfSubjectRulesReviewStorage(deps.security),
    subresources: {},
    selectableFields: reviewSelectableFields,
  },
];

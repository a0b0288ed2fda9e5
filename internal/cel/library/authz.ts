/**
 * Kubernetes' authz library: authorizer.group(g).resource(r)[.subresource(s)][.namespace(ns)]
 * [.name(n)][.fieldSelector(f)][.labelSelector(l)].check(verb), authorizer.path(p).check(verb),
 * authorizer.serviceAccount(ns, name) and authorizer.requestResource, with allowed(), reason(),
 * errored() and error() on the decision. Checks ask the server's authorizer through the current
 * evaluation's binding; an answer that needs I/O suspends the evaluation (AuthorizationPending)
 * and evaluateAsync runs it again once the answer is in.
 */
import { CelScalar, celMethod, type CelFunc } from '@bufbuild/cel';
import type { ReflectMessage } from '@bufbuild/protobuf/reflect';
import type { AuthorizationAttributes, AuthorizationDecision } from '../../authz/interface.js';
import type { UserInfo } from '../../request/context.js';
import { fieldSelectorAttributes, labelSelectorAttributes } from '../../registry/authorization/access-review-attributes.js';
import { AuthorizationPending, currentAuthz } from '../eval-context.js';
import { KubeDesc, KubeType, fieldOf, kubeValue } from '../types.js';

const { STRING, BOOL } = CelScalar;
const { Authorizer, PathCheck, GroupCheck, ResourceCheck, Decision } = KubeType;

/** The authorizer variable's value; requestResource describes the request being admitted. */
export function authorizerValue(requestResource?: { group: string; resource: string; subresource: string; namespace: string; name: string }): ReflectMessage {
  return kubeValue(KubeDesc.Authorizer, requestResource ? { requestResource: kubeValue(KubeDesc.ResourceCheck, requestResource) } : {});
}

function userFor(principal: string, requestUser: UserInfo): UserInfo {
  if (!principal) return requestUser;
  const [ns, name] = principal.split('/');
  return { name: `system:serviceaccount:${ns}:${name}`, groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`, 'system:authenticated'] };
}

function decide(principal: string, attrs: Omit<AuthorizationAttributes, 'user'>): ReflectMessage {
  const binding = currentAuthz();
  if (!binding) throw new Error('no authorizer available');
  const key = JSON.stringify([principal, attrs]);
  let d: AuthorizationDecision | undefined = binding.decisions.get(key);
  if (!d) {
    if (binding.pending.has(key)) throw new AuthorizationPending('authorization pending');
    const answer = binding.authorize({ ...attrs, user: userFor(principal, binding.user) });
    if (answer instanceof Promise) {
      binding.pending.set(
        key,
        answer.then(
          (x) => (binding.decisions.set(key, x), x),
          (err: unknown) => {
            const x: AuthorizationDecision = { decision: 'NoOpinion', reason: '', error: (err as Error).message };
            binding.decisions.set(key, x);
            return x;
          },
        ),
      );
      throw new AuthorizationPending('authorization pending');
    }
    d = answer;
    binding.decisions.set(key, d);
  }
  return kubeValue(KubeDesc.Decision, { decision: d.decision === 'Allow' ? 'allow' : d.decision === 'Deny' ? 'deny' : 'noopinion', reason: d.reason ?? '', error: d.error ?? '' });
}

const f = (m: unknown, name: string) => fieldOf(m, name);
const withField = (m: unknown, name: string, value: string) => {
  const fields: Record<string, string> = {};
  for (const k of ['principal', 'group', 'resource', 'subresource', 'namespace', 'name', 'fieldSelector', 'labelSelector']) fields[k] = f(m, k);
  fields[name] = value;
  return kubeValue(KubeDesc.ResourceCheck, fields);
};

/** The authz library's functions. */
export const authzLibrary: CelFunc[] = [
  celMethod('path', Authorizer, [STRING], PathCheck, function (path) {
    return kubeValue(KubeDesc.PathCheck, { principal: f(this, 'principal'), path });
  }),
  celMethod('group', Authorizer, [STRING], GroupCheck, function (group) {
    return kubeValue(KubeDesc.GroupCheck, { principal: f(this, 'principal'), group });
  }),
  celMethod('serviceAccount', Authorizer, [STRING, STRING], Authorizer, function (ns, name) {
    return kubeValue(KubeDesc.Authorizer, { principal: `${ns}/${name}` });
  }),
  celMethod('resource', GroupCheck, [STRING], ResourceCheck, function (resource) {
    return kubeValue(KubeDesc.ResourceCheck, { principal: f(this, 'principal'), group: f(this, 'group'), resource });
  }),
  ...(['subresource', 'namespace', 'name', 'fieldSelector', 'labelSelector'] as const).map((name) =>
    celMethod(name, ResourceCheck, [STRING], ResourceCheck, function (value) {
      return withField(this, name, value);
    }),
  ),
  celMethod('check', ResourceCheck, [STRING], Decision, function (verb) {
    const fieldSelector = f(this, 'fieldSelector') ? fieldSelectorAttributes({ rawSelector: f(this, 'fieldSelector') }) : undefined;
    const labelSelector = f(this, 'labelSelector') ? labelSelectorAttributes({ rawSelector: f(this, 'labelSelector') }) : undefined;
    return decide(f(this, 'principal'), {
      ...(fieldSelector ? { fieldSelector } : {}),
      ...(labelSelector ? { labelSelector } : {}),
      verb,
      isResourceRequest: true,
      path: '',
      namespace: f(this, 'namespace'),
      apiGroup: f(this, 'group'),
      apiVersion: '*',
      resource: f(this, 'resource'),
      subresource: f(this, 'subresource'),
      name: f(this, 'name'),
    });
  }),
  celMethod('check', PathCheck, [STRING], Decision, function (verb) {
    return decide(f(this, 'principal'), {
      verb: verb.toLowerCase(),
      isResourceRequest: false,
      path: f(this, 'path'),
      namespace: '',
      apiGroup: '',
      apiVersion: '',
      resource: '',
      subresource: '',
      name: '',
    });
  }),
  celMethod('allowed', Decision, [], BOOL, function () {
    return f(this, 'decision') === 'allow';
  }),
  celMethod('reason', Decision, [], STRING, function () {
    return f(this, 'reason');
  }),
  celMethod('errored', Decision, [], BOOL, function () {
    return f(this, 'error') !== '';
  }),
  celMethod('error', Decision, [], STRING, function () {
    return f(this, 'error');
  }),
];

/**
 * Issue 18 item 4, authorization fuzz: against a real API server with --authorization-mode=Node,RBAC
 * and identities from a --token-auth-file, fast-check generates random RBAC policies and random
 * requests; an independent reference evaluator (support/rbac-reference.ts, fed the generated policy
 * plus the server's bootstrap policy read as data) decides each one. Every decision is compared
 * twice: as a SubjectAccessReview, and as a real HTTP request carrying the identity (and
 * impersonation headers), where 403 with kube's message means denied and anything else allowed.
 * Zero disagreements is the oracle; a disagreement prints the policy, the request and both answers.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { campaignCases, reportCampaign } from '../support/campaign.js';
import { useServer } from '../support/server.js';
import { bearer, tokenAuthFileFlag } from '../support/static-tokens.js';
import { httpCaseArb, NAMESPACES, policyArb, reviewAttributesArb, TOKEN_IDENTITIES, type GeneratedPolicy, type HttpCase } from './support/authz-arbitraries.js';
import { derivedHttpArb, derivedReviewArb } from './support/authz-derived.js';
import { attributesOf, forbiddenMessage, sendHttp, targetPath } from './support/authz-http.js';
import { aggregationDiffs, awaitAuthorizer, readBootstrapPolicy, replacePolicy, reviewAllowed } from './support/authz-policy-io.js';
import { ReferenceRbac, type RequestAttributes, type UserInfo } from './support/rbac-reference.js';
import { impersonationChecks, impersonationHeaders } from './support/rbac-reference-impersonation.js';

const root = { token: 'fz-root-token-0123456789', name: 'fz-root', uid: 'fz-root-uid', groups: ['system:masters'] };
const admin = bearer(root.token);

/** The SubjectAccessReview spec asking about attributes a. */
function reviewSpec(a: RequestAttributes): Record<string, unknown> {
  const who = { user: a.user.name, groups: [...a.user.groups] };
  if (a.kind === 'nonResource') return { ...who, nonResourceAttributes: { path: a.path, verb: a.verb } };
  return { ...who, resourceAttributes: { namespace: a.namespace, verb: a.verb, group: a.apiGroup, version: 'v1', resource: a.resource, subresource: a.subresource, name: a.name } };
}

/** What the reference expects of an HTTP case: allowed, or a 403 with this message. */
function expectHttp(ref: ReferenceRbac, c: HttpCase): { allowed: true } | { allowed: false; message: string } {
  const id = TOKEN_IDENTITIES[c.identity];
  let user: UserInfo = id ? { name: id.name, groups: [...id.groups, 'system:authenticated'] } : { name: 'system:anonymous', groups: ['system:unauthenticated'] };
  if (c.impersonation) {
    const { checks, actAs } = impersonationChecks(user, c.impersonation);
    const denied = checks.find((a) => !ref.allowed(a));
    if (denied) return { allowed: false, message: forbiddenMessage(denied) };
    user = actAs;
  }
  const a = attributesOf(c.target, user);
  return ref.allowed(a) ? { allowed: true } : { allowed: false, message: forbiddenMessage(a) };
}

function policyText(p: GeneratedPolicy): string {
  return JSON.stringify(p, (k, v) => (k === 'labels' || k === 'apiGroup' ? undefined : v));
}

/** Runs fn over items with at most n in flight. */
async function pool<T>(items: readonly T[], n: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]);
  }));
}

describe('authorization fuzz: random RBAC policies and requests against a reference evaluator', () => {
  const users = [root, ...TOKEN_IDENTITIES.map((u) => ({ token: u.token, name: u.name, uid: `${u.name}-uid`, groups: u.groups }))];
  const fx = useServer({}, async () => [await tokenAuthFileFlag(users), '--authorization-mode=Node,RBAC']);

  it('agrees with the server on every SubjectAccessReview and every HTTP request', async (t) => {
    for (const ns of NAMESPACES) {
      const res = await fx.request('POST', '/api/v1/namespaces', { headers: admin, body: { metadata: { name: ns } } });
      assert.equal(res.status, 201, res.text);
    }
    const counts = { policies: 0, 'decisions compared': 0, 'requests sent': 0, disagreements: 0 };
    // How the decisions split, so a run shows the comparison was not one-sided.
    const split = { 'reviews allowed': 0, 'requests allowed': 0, 'impersonations allowed': 0, 'impersonations denied': 0 };
    let round = 0;
    const seed = process.env.CAMPAIGN_SEED ? Number(process.env.CAMPAIGN_SEED) : undefined;
    await fc.assert(
      fc.asyncProperty(
        policyArb.chain((policy) =>
          fc.tuple(
            fc.constant(policy),
            fc.array(fc.oneof(reviewAttributesArb, derivedReviewArb(policy)), { minLength: 60, maxLength: 60 }),
            fc.array(fc.oneof(httpCaseArb, derivedHttpArb(policy)), { minLength: 40, maxLength: 40 }),
          ),
        ),
        async ([policy, aimedReviews, aimedCases]) => {
          const reviews = aimedReviews.filter((a): a is RequestAttributes => a !== undefined);
          const cases = aimedCases.filter((c): c is HttpCase => c !== undefined);
          round++;
          await replacePolicy(fx, admin, policy);
          const bootstrap = await readBootstrapPolicy(fx, admin);
          const ref = new ReferenceRbac({
            clusterRoles: [...bootstrap.clusterRoles, ...policy.clusterRoles],
            roles: [...bootstrap.roles, ...policy.roles],
            clusterRoleBindings: [...bootstrap.clusterRoleBindings, ...policy.clusterRoleBindings],
            roleBindings: [...bootstrap.roleBindings, ...policy.roleBindings],
          });
          // The aggregation controller must fill the aggregated ClusterRoles before the sentinels are made.
          let diffs = await aggregationDiffs(fx, admin, ref);
          for (const deadline = Date.now() + 10_000; diffs.length > 0 && Date.now() < deadline; diffs = await aggregationDiffs(fx, admin, ref)) await new Promise((r) => setTimeout(r, 50));
          const problems = diffs.map((d) => `aggregation: ${d}`);
          await awaitAuthorizer(fx, admin, round);
          counts.policies++;

          await pool(reviews, 8, async (a) => {
            const want = ref.allowed(a);
            if (want) split['reviews allowed']++;
            const spec = reviewSpec(a);
            const got = await reviewAllowed(fx, admin, spec);
            counts['decisions compared']++;
            if (got.allowed !== want) problems.push(`SubjectAccessReview ${JSON.stringify(spec)}: reference ${want ? 'allows' : 'denies'}, server says ${JSON.stringify(got.raw)}`);
          });

          await pool(cases, 8, async (c) => {
            const want = expectHttp(ref, c);
            if (want.allowed) split['requests allowed']++;
            if (c.impersonation) split[want.allowed || !want.message.includes(' cannot impersonate ') ? 'impersonations allowed' : 'impersonations denied']++;
            const id = TOKEN_IDENTITIES[c.identity];
            const headers = { ...(id ? bearer(id.token) : {}), ...(c.impersonation ? impersonationHeaders(c.impersonation) : {}) };
            const path = targetPath(c.target);
            const body = ['GET', 'HEAD', 'DELETE'].includes(c.target.method) ? undefined : '{}';
            const got = await sendHttp(fx.port, fx.ca, c.target.method, path, headers, body, attributesOf(c.target, { name: '', groups: [] }).verb === 'watch');
            counts['requests sent']++;
            counts['decisions compared']++;
            let message = '';
            try {
              message = String(JSON.parse(got.body).message ?? '');
            } catch {
              // not a Status: an allowed answer of another kind
            }
            // A HEAD answer has no body to read the message from.
            const head = c.target.method === 'HEAD';
            const denied = got.status === 403 && (head || message.includes(' cannot '));
            const sent = `${c.target.method} ${path} as ${id?.name ?? 'system:anonymous'}${c.impersonation ? ` impersonating ${JSON.stringify(c.impersonation)}` : ''}`;
            if (denied === want.allowed) {
              problems.push(`HTTP ${sent}: reference ${want.allowed ? 'allows' : `denies (${want.message})`}, server answered ${got.status} ${got.body.slice(0, 300)}`);
            } else if (!want.allowed && !head && message !== want.message && !message.startsWith(`${want.message}: `)) {
              problems.push(`HTTP ${sent}: 403 message ${JSON.stringify(message)}, kube's would be ${JSON.stringify(want.message)}`);
            }
          });

          counts.disagreements += problems.length;
          if (problems.length > 0) {
            // fast-check's report leads with the (long) counterexample: say what disagreed first.
            process.stderr.write(`authorization-fuzz: ${problems.length} disagreement(s) under policy ${policyText(policy)}:\n${problems.slice(0, 20).join('\n')}\n`);
            throw new Error(`${problems.length} disagreement(s) under policy ${policyText(policy)}:\n${problems.slice(0, 20).join('\n')}`);
          }
        },
      ),
      // On a machine too busy to finish the runs in 15 s, the runs so far stand (the counts say how
      // many): starting and stopping etcd and the server can take another 20 s there, and the file has 45.
      { numRuns: campaignCases(8), endOnFailure: true, interruptAfterTimeLimit: 15_000 * Math.max(1, Number(process.env.CAMPAIGN_SCALE) || 1), markInterruptAsFailure: false, ...(seed !== undefined ? { seed } : {}) },
    );
    t.diagnostic(`decision split: ${JSON.stringify(split)}`);
    reportCampaign(t, 'authorization-fuzz', counts);
  });
});

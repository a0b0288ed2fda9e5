/**
 * Mutating webhooks (kube's mutating dispatcher): called one after another in order, each seeing
 * the object as the ones before it left it; a JSON patch answer is applied to the object in the
 * request's version and defaulted. A webhook whose patch changed the object makes every earlier
 * webhook with reinvocationPolicy IfNeeded run once more (round 1). Each call is annotated for
 * audit (mutation.webhook.admission.k8s.io/round_N_index_M and, at level Request and above, the
 * patch under patch.webhook.admission.k8s.io/).
 */
import { isDeepStrictEqual } from 'node:util';
import type { KubeObject } from '../../../../api/meta/types.js';
import { newInternalError, newTimeoutError } from '../../../apierrors/factories.js';
import { StatusError } from '../../../apierrors/status-error.js';
import { applyJsonPatch, decodeJsonPatch } from '../../../endpoints/patch/json-patch.js';
import type { WebhookAdmissionMetrics } from '../../../observability/webhook-admission-metrics.js';
import type { RequestContext } from '../../../request/context.js';
import type { WebhookCaller } from './caller.js';
import { CallingWebhookError, rejectionStatus, WebhookRejection } from './errors.js';
import type { Authorizer } from '../../../authz/interface.js';
import { rulesMatch, shouldCallHook, type NamespaceLookup, type VersionsLookup } from './matcher.js';
import { settleCall } from './outcome.js';
import type { WebhookAccessor } from './types.js';
import { VersionedAttributes } from './versioned.js';
import { setOwnKey } from '../../../collections/own-key.js';

const mutationPrefix = 'mutation.webhook.admission.k8s.io/';
const patchPrefix = 'patch.webhook.admission.k8s.io/';
const failedOpenPrefix = 'failed-open.mutation.webhook.admission.k8s.io/';

function sortedKeys(op: unknown): unknown {
  if (typeof op !== 'object' || op === null || Array.isArray(op)) return op;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(op).sort()) out[k] = (op as Record<string, unknown>)[k];
  return out;
}

/** Runs mutating webhooks over one request. */
export class MutatingDispatcher {
  constructor(
    private readonly caller: WebhookCaller,
    private readonly namespaces: NamespaceLookup,
    private readonly metrics: WebhookAdmissionMetrics,
    private readonly versionsOf?: VersionsLookup,
    private readonly authorizer?: () => Authorizer,
  ) {}

  /** Calls the webhooks in order; throws the StatusError that refuses the request. */
  async dispatch(hooks: readonly WebhookAccessor[], va: VersionedAttributes, ctx: RequestContext): Promise<void> {
    const previouslyInvoked = new Set<string>();
    const reinvoke = new Set<string>();
    let shouldReinvoke = false;
    for (let round = 0; round < 2; round++) {
      if (round === 1 && !shouldReinvoke) break;
      for (let i = 0; i < hooks.length; i++) {
        const hook = hooks[i] as WebhookAccessor;
        const match = rulesMatch(hook, va, this.versionsOf);
        if (!match) continue;
        const inVersion = () => {
          va.useVersion(match.versioning, match.version);
          return va;
        };
        if (!(await shouldCallHook(hook, va, this.namespaces, inVersion, this.authorizer))) continue;
        // A webhook skipped in the first round is not called for the first time in the second.
        if (round === 1 && !reinvoke.has(hook.uid)) continue;
        inVersion();
        const started = performance.now();
        let changed = false;
        let error: unknown;
        try {
          changed = await this.callHook(hook, va, ctx, round, i);
        } catch (err) {
          error = err;
        }
        va.attrs.addAnnotation(`${mutationPrefix}round_${round}_index_${i}`, JSON.stringify({ configuration: hook.configurationName, webhook: hook.name, mutated: changed }));
        const refusal = settleCall(this.metrics, 'admit', hook, va.attrs, (performance.now() - started) / 1000, error, `${failedOpenPrefix}round_${round}_index_${i}`);
        if (changed) {
          for (const uid of previouslyInvoked) reinvoke.add(uid);
          shouldReinvoke = true;
        }
        if (hook.spec.reinvocationPolicy === 'IfNeeded') previouslyInvoked.add(hook.uid);
        if (refusal) throw refusal;
        if (error !== undefined && ctx.signal.aborted) throw newTimeoutError('request did not complete within requested timeout', 0);
      }
      // Reinvocation is one more round, with only the webhooks asked for in it.
      if (round === 0) {
        shouldReinvoke = shouldReinvoke && reinvoke.size > 0;
      }
    }
    if (va.dirty) this.writeBack(va);
  }

  /** One call; applies its patch. Returns whether the object changed. */
  private async callHook(hook: WebhookAccessor, va: VersionedAttributes, ctx: RequestContext, round: number, index: number): Promise<boolean> {
    const result = await this.caller.call(hook, va, true, ctx);
    if (!result.allowed) throw new WebhookRejection(rejectionStatus(hook.name, result.result));
    if (result.patch === undefined) return false;
    let ops;
    try {
      ops = decodeJsonPatch(result.patch);
    } catch (err) {
      throw new CallingWebhookError(hook.name, `received undecodable patch in webhook response: ${(err as Error).message}`, 503);
    }
    if (ops.length === 0) return false;
    if (!va.object) throw newInternalError(`admission webhook ${JSON.stringify(hook.name)} attempted to modify the object, which is not supported for this operation`);
    if (result.patchType !== 'JSONPatch') {
      throw new CallingWebhookError(hook.name, `unsupported patch type ${JSON.stringify(result.patchType ?? '')}`, 400);
    }
    let patched: KubeObject;
    try {
      patched = applyJsonPatch(va.object, ops) as KubeObject;
    } catch (err) {
      // The library's own text, not the 422 a client's patch would get.
      const cause = err instanceof StatusError && err.cause instanceof Error ? err.cause : (err as Error);
      throw newInternalError(cause.message);
    }
    const changed = !isDeepStrictEqual(va.object, patched);
    const level = ctx.audit?.level;
    if (level === 'Request' || level === 'RequestResponse') {
      va.attrs.addAnnotation(
        `${patchPrefix}round_${round}_index_${index}`,
        JSON.stringify({ configuration: hook.configurationName, webhook: hook.name, patch: ops.map(sortedKeys), patchType: 'JSONPatch' }),
      );
    }
    va.versioning.defaults(patched);
    va.object = patched;
    va.dirty = true;
    return changed;
  }

  /** Puts the patched object back into the request's object (the stored form), in place. */
  private writeBack(va: VersionedAttributes): void {
    const target = va.attrs.object;
    const internal = va.internalObject();
    if (!target || !internal) return;
    const t = target as unknown as Record<string, unknown>;
    for (const k of Object.keys(t)) delete t[k];
    for (const [k, v] of Object.entries(internal)) setOwnKey(t, k, v);
  }
}

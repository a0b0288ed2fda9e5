/**
 * Validation of bound service account tokens (kube's claims.go validator): exp, nbf and iat with
 * kube's one-minute leeway; the service account must exist with the token's uid; the secret, pod or
 * node the token is bound to must exist with the token's uid; and none of them may have been marked
 * for deletion more than the leeway ago. The lookups start together and are judged in kube's order.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import type { ServiceAccountTokenCounters } from '../../observability/metrics.js';
import { leewaySeconds } from '../../serviceaccount/claims.js';
import type { TokenClaimsValidator } from './jwt-authenticator.js';
import type { ServiceAccountTokenGetter } from './getter.js';
import type { ServiceAccountInfo } from './user-info.js';

interface Ref {
  readonly name: string;
  readonly uid: string;
}

type Lookup = { readonly ok: true; readonly obj: KubeObject } | { readonly ok: false; readonly err: unknown };

function settle(p: Promise<KubeObject>): Promise<Lookup> {
  return p.then(
    (obj): Lookup => ({ ok: true, obj }),
    (err: unknown): Lookup => ({ ok: false, err }),
  );
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function refOf(v: unknown): Ref | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const r = v as Record<string, unknown>;
  return { name: str(r.name), uid: str(r.uid) };
}

function numericDate(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v * 1000 : undefined;
}

/** Throws kube's messages for a token outside its validity window at nowMs. */
export function checkTokenTimes(claims: Readonly<Record<string, unknown>>, nowMs: number): void {
  const leeway = leewaySeconds * 1000;
  const nbf = numericDate(claims.nbf);
  const exp = numericDate(claims.exp);
  const iat = numericDate(claims.iat);
  if (nbf !== undefined && nowMs + leeway < nbf) throw new Error('service account token is not valid yet');
  if (exp !== undefined && nowMs - leeway > exp) throw new Error('service account token has expired');
  if (iat !== undefined && nowMs + leeway < iat) throw new Error('service account token is issued in the future');
}

/** Whether obj was marked for deletion before the cut-off (epoch ms). */
function deletedBefore(obj: KubeObject, cutoff: number): boolean {
  const ts = obj.metadata.deletionTimestamp;
  return typeof ts === 'string' && Date.parse(ts) < cutoff;
}

const invalidated = 'service account token has been invalidated';

/** The validator of tokens issued through the TokenRequest API. */
export class BoundTokenValidator implements TokenClaimsValidator {
  constructor(
    private readonly getter: ServiceAccountTokenGetter,
    private readonly now: () => number = Date.now,
    private readonly counters?: ServiceAccountTokenCounters,
  ) {}

  async validate(_token: string, claims: Readonly<Record<string, unknown>>): Promise<ServiceAccountInfo> {
    const nowMs = this.now();
    checkTokenTimes(claims, nowMs);
    const cutoff = nowMs - leewaySeconds * 1000;
    const k8s = (typeof claims['kubernetes.io'] === 'object' && claims['kubernetes.io'] !== null ? claims['kubernetes.io'] : {}) as Record<string, unknown>;
    const namespace = str(k8s.namespace);
    const sa = refOf(k8s.serviceaccount) ?? { name: '', uid: '' };
    const podRef = refOf(k8s.pod);
    const secretRef = refOf(k8s.secret);
    const nodeRef = refOf(k8s.node);
    const nodeBound = nodeRef !== undefined && podRef === undefined;

    const saLookup = settle(this.getter.serviceAccount(namespace, sa.name));
    const secretLookup = secretRef ? settle(this.getter.secret(namespace, secretRef.name)) : undefined;
    const podLookup = podRef ? settle(this.getter.pod(namespace, podRef.name)) : undefined;
    const nodeLookup = nodeBound ? settle(this.getter.node(nodeRef.name)) : undefined;

    const account = await saLookup;
    if (!account.ok) throw account.err;
    if (account.obj.metadata.uid !== sa.uid) throw new Error(`service account UID (${account.obj.metadata.uid ?? ''}) does not match claim (${sa.uid})`);
    if (deletedBefore(account.obj, cutoff)) throw new Error(`service account ${namespace}/${sa.name} has been deleted`);

    const bound = async (lookup: Promise<Lookup> | undefined, ref: Ref | undefined, kind: string): Promise<void> => {
      if (!lookup || !ref) return;
      const r = await lookup;
      if (!r.ok) throw new Error(invalidated);
      if (r.obj.metadata.uid !== ref.uid) throw new Error(`${kind} UID (${r.obj.metadata.uid ?? ''}) does not match service account ${kind} ref claim (${ref.uid})`);
      if (deletedBefore(r.obj, cutoff)) throw new Error(invalidated);
    };
    await bound(secretLookup, secretRef, 'secret');
    await bound(podLookup, podRef, 'pod');
    await bound(nodeLookup, nodeRef, 'node');

    const jti = str(claims.jti);
    // A token extended past its warning time (--service-account-extend-token-expiration) still
    // works, and its use is recorded: the client should have refreshed it by now.
    const warnafter = typeof k8s.warnafter === 'number' ? k8s.warnafter : 0;
    const secondsAfterWarn = warnafter !== 0 ? Math.floor(nowMs / 1000) - warnafter : 0;
    if (warnafter !== 0) (secondsAfterWarn > 0 ? this.counters?.stale : this.counters?.valid)?.inc();
    return {
      ...(secondsAfterWarn > 0 ? { auditAnnotations: { 'authentication.k8s.io/stale-token': `subject: ${str(claims.sub)}, seconds after warning threshold: ${secondsAfterWarn}` } } : {}),
      namespace,
      name: sa.name,
      uid: sa.uid,
      ...(podRef ? { podName: podRef.name, podUID: podRef.uid } : {}),
      ...(nodeRef ? { nodeName: nodeRef.name, nodeUID: nodeRef.uid } : {}),
      ...(jti ? { credentialID: `JTI=${jti}` } : {}),
    };
  }
}

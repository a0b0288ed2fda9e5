/**
 * AdmissionReview (admission.k8s.io/v1 and v1beta1) as kube builds it for a webhook, and kube's
 * checks of the answer (VerifyAdmissionResponse).
 */
import { randomUUID } from 'node:crypto';
import type { KubeObject } from '../../../../api/meta/types.js';
import type { UserInfo } from '../../../request/context.js';
import type { ResultStatus } from './errors.js';
import { setOwnKey } from '../../../collections/own-key.js';

/** What an AdmissionRequest is made of: the attributes in the version the webhook is sent. */
export interface ReviewInput {
  readonly kind: { group: string; version: string; kind: string };
  readonly resource: { group: string; version: string; resource: string };
  readonly subResource: string;
  readonly requestKind: { group: string; version: string; kind: string };
  readonly requestResource: { group: string; version: string; resource: string };
  readonly requestSubResource: string;
  readonly name: string;
  readonly namespace: string;
  readonly operation: string;
  readonly userInfo: UserInfo;
  readonly object: KubeObject | undefined;
  readonly oldObject: KubeObject | undefined;
  readonly dryRun: boolean;
  readonly options: Readonly<Record<string, unknown>> | undefined;
}

/** authenticationv1.UserInfo as JSON (every field omitempty). */
export function userInfoJson(u: UserInfo): Record<string, unknown> {
  const extra = u.extra && Object.keys(u.extra).length > 0 ? u.extra : undefined;
  return {
    ...(u.name ? { username: u.name } : {}),
    ...(u.uid ? { uid: u.uid } : {}),
    ...(u.groups.length > 0 ? { groups: u.groups } : {}),
    ...(extra ? { extra } : {}),
  };
}

/** A new AdmissionReview with a fresh request uid, in the webhook's version. */
export function createAdmissionReview(input: ReviewInput, version: 'v1' | 'v1beta1'): { uid: string; review: Record<string, unknown> } {
  const uid = randomUUID();
  const request = {
    uid,
    kind: input.kind,
    resource: input.resource,
    ...(input.subResource ? { subResource: input.subResource } : {}),
    requestKind: input.requestKind,
    requestResource: input.requestResource,
    ...(input.requestSubResource ? { requestSubResource: input.requestSubResource } : {}),
    ...(input.name ? { name: input.name } : {}),
    ...(input.namespace ? { namespace: input.namespace } : {}),
    operation: input.operation,
    userInfo: userInfoJson(input.userInfo),
    object: input.object ?? null,
    oldObject: input.oldObject ?? null,
    dryRun: input.dryRun,
    options: input.options ?? null,
  };
  return { uid, review: { kind: 'AdmissionReview', apiVersion: `admission.k8s.io/${version}`, request } };
}

/** A checked answer. */
export interface AdmissionResult {
  readonly allowed: boolean;
  readonly result?: ResultStatus;
  readonly patch?: unknown;
  readonly patchType?: string;
  readonly auditAnnotations: Readonly<Record<string, string>>;
  readonly warnings: readonly string[];
}

function stringMap(v: unknown): Record<string, string> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return {};
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) if (typeof x === 'string') setOwnKey(out, k, x);
  return out;
}

/**
 * Checks an answer as kube does; throws an Error with kube's text for a bad one. The patch (base64
 * of a JSON patch) is decoded to its JSON value; one that does not decode throws "undecodable".
 */
export function verifyAdmissionResponse(uid: string, version: 'v1' | 'v1beta1', mutating: boolean, body: unknown): AdmissionResult {
  const review = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const response = review.response as Record<string, unknown> | undefined | null;
  if (version === 'v1') {
    if (!response || typeof response !== 'object') throw new Error('webhook response was absent');
    if (response.uid !== uid) throw new Error(`expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(typeof response.uid === 'string' ? response.uid : '')}`);
    if (review.apiVersion !== 'admission.k8s.io/v1' || review.kind !== 'AdmissionReview') {
      throw new Error(`expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${gvkString(review.apiVersion, review.kind)}`);
    }
  } else if (!response || typeof response !== 'object') {
    throw new Error('webhook response was absent');
  }
  const patchText = typeof response.patch === 'string' && response.patch.length > 0 ? response.patch : undefined;
  const hasPatchType = response.patchType !== undefined && response.patchType !== null;
  let patchType: string | undefined;
  if (mutating) {
    if (version === 'v1') {
      if (patchText && !hasPatchType) throw new Error('webhook returned response.patch but not response.patchType');
      if (!patchText && hasPatchType) throw new Error('webhook returned response.patchType but not response.patch');
      if (hasPatchType && (typeof response.patchType !== 'string' || response.patchType === '')) {
        throw new Error(`webhook returned invalid response.patchType of ${JSON.stringify(String(response.patchType))}`);
      }
      patchType = hasPatchType ? String(response.patchType) : undefined;
    } else {
      // v1beta1 answers were never checked; a patch without a type fails as an unsupported type.
      patchType = hasPatchType ? String(response.patchType) : '';
    }
  } else if (version === 'v1') {
    if (patchText) throw new Error('validating webhook may not return response.patch');
    if (hasPatchType) throw new Error('validating webhook may not return response.patchType');
  }
  const keepPatch = mutating && patchText !== undefined;
  let patch: unknown;
  if (keepPatch) patch = decodePatch(patchText);
  const warnings = Array.isArray(response.warnings) ? response.warnings.filter((w): w is string => typeof w === 'string') : [];
  return {
    allowed: response.allowed === true,
    ...(typeof response.status === 'object' && response.status !== null ? { result: response.status as ResultStatus } : {}),
    ...(keepPatch ? { patch, patchType: patchType ?? '' } : {}),
    auditAnnotations: stringMap(response.auditAnnotations),
    warnings,
  };
}

/** An undecodable patch (kube: "received undecodable patch in webhook response"). */
export class UndecodablePatchError extends Error {}

function decodePatch(base64: string): unknown {
  const text = Buffer.from(base64, 'base64').toString('utf8');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UndecodablePatchError((err as Error).message);
  }
}

function gvkString(apiVersion: unknown, kind: unknown): string {
  const av = typeof apiVersion === 'string' ? apiVersion : '';
  const i = av.indexOf('/');
  const group = i < 0 ? '' : av.slice(0, i);
  const version = i < 0 ? av : av.slice(i + 1);
  return `${group}/${version}, Kind=${typeof kind === 'string' ? kind : ''}`;
}

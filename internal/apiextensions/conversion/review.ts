/**
 * The ConversionReview a webhook receives and kube's checks of its answer
 * (createConversionReviewObjects, getConvertedObjectsFromResponse, getRawExtensionObject): the
 * first of conversionReviewVersions this server speaks (v1 or v1beta1), a request uid that a v1
 * answer must echo, result.status Success (else the webhook's message), and convertedObjects that
 * decode as objects with a kind.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { goTypeOf } from './go-type.js';
import { groupVersionKindString } from './group-version.js';

/** A review version this server sends. */
export type ReviewVersion = 'v1' | 'v1beta1';

const reviewGroup = 'apiextensions.k8s.io';

/** The first version of versions this server speaks, or undefined when none is. */
export function pickReviewVersion(versions: readonly string[]): ReviewVersion | undefined {
  for (const v of versions) if (v === 'v1' || v === 'v1beta1') return v;
  return undefined;
}

/** The ConversionReview request body. */
export function conversionReview(version: ReviewVersion, uid: string, desiredAPIVersion: string, objects: readonly KubeObject[]): Record<string, unknown> {
  return { kind: 'ConversionReview', apiVersion: `${reviewGroup}/${version}`, request: { uid, desiredAPIVersion, objects } };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The convertedObjects of a webhook's answer, as they came; throws an Error with kube's text when
 * the answer is of the wrong type, lacks a response, echoes another uid (v1) or did not succeed.
 */
export function convertedObjectsFromResponse(version: ReviewVersion, uid: string, body: unknown): unknown[] {
  if (!isObject(body) || typeof body.kind !== 'string' || body.kind === '') {
    throw new Error(`Object 'Kind' is missing in '${JSON.stringify(body)}'`);
  }
  if (version === 'v1') {
    const expected = `${reviewGroup}/v1, Kind=ConversionReview`;
    const got = groupVersionKindString(body.apiVersion, body.kind);
    if (got !== expected) throw new Error(`expected webhook response of ${expected}, got ${got}`);
  }
  const response = body.response;
  if (!isObject(response)) throw new Error('no response provided');
  // v1beta1 answers were never checked for their uid; kube keeps it that way for compatibility.
  if (version === 'v1') {
    const got = typeof response.uid === 'string' ? response.uid : '';
    if (got !== uid) throw new Error(`expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(got)}`);
  }
  const result = isObject(response.result) ? response.result : {};
  const status = typeof result.status === 'string' ? result.status : '';
  if (status !== 'Success') {
    const message = typeof result.message === 'string' ? result.message : '';
    throw new Error(message !== '' ? message : `response.result.status was '${status}', not 'Success'`);
  }
  return Array.isArray(response.convertedObjects) ? response.convertedObjects : [];
}

/** One converted object decoded as kube's unstructured decoder does; throws its Error otherwise. */
export function decodeConvertedObject(raw: unknown): Record<string, unknown> {
  if (!isObject(raw)) {
    if (raw === null) throw new Error(`Object 'Kind' is missing in 'null'`);
    throw new Error(`json: cannot unmarshal ${goJsonType(raw)} into Go value of type map[string]interface {}`);
  }
  if (typeof raw.kind !== 'string' || raw.kind === '') throw new Error(`Object 'Kind' is missing in '${JSON.stringify(raw)}'`);
  return raw;
}

/** encoding/json's name for a JSON value's type in unmarshal errors. */
function goJsonType(v: unknown): string {
  const t = goTypeOf(v);
  if (t === 'int64' || t === 'float64') return 'number';
  if (t === '[]interface {}') return 'array';
  return t;
}

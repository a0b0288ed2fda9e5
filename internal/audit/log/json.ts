/**
 * The log backend's "json" format: one audit.k8s.io/v1 Event per line, as kube's JSON serializer
 * (Go's encoding/json) writes it: fields in the Event struct's order, omitempty fields left out
 * when empty, map keys (annotations, user extra) sorted, and <, >, & and U+2028/U+2029 escaped.
 * A response object that came from the watch cache is written from the cache's bytes, not
 * encoded again.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { encodedJsonOf } from '../../storage/encoded.js';
import type { AuditEvent, AuditObjectReference, AuditUserInfo } from '../interface.js';

const goEscapes: Readonly<Record<string, string>> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };
const needsEscape = /[<>&\u2028\u2029]/;
const escapeAll = /[<>&\u2028\u2029]/g;

const q = JSON.stringify;

function sortedMap(map: Readonly<Record<string, unknown>>): string {
  const keys = Object.keys(map).sort();
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as string;
    out += `${i > 0 ? ',' : ''}${q(k)}:${q(map[k])}`;
  }
  return `${out}}`;
}

function userInfo(u: AuditUserInfo): string {
  const parts: string[] = [];
  if (u.username) parts.push(`"username":${q(u.username)}`);
  if (u.uid) parts.push(`"uid":${q(u.uid)}`);
  if (u.groups && u.groups.length > 0) parts.push(`"groups":${q(u.groups)}`);
  if (u.extra && Object.keys(u.extra).length > 0) parts.push(`"extra":${sortedMap(u.extra)}`);
  return `{${parts.join(',')}}`;
}

const objectRefFields: ReadonlyArray<keyof AuditObjectReference> = ['resource', 'namespace', 'name', 'uid', 'apiGroup', 'apiVersion', 'resourceVersion', 'subresource'];

function objectRef(r: AuditObjectReference): string {
  const parts: string[] = [];
  for (const f of objectRefFields) {
    const v = r[f];
    if (v) parts.push(`${q(f)}:${q(v)}`);
  }
  return `{${parts.join(',')}}`;
}

function responseStatus(s: NonNullable<AuditEvent['responseStatus']>): string {
  let out = '{"metadata":{}';
  if (s.status) out += `,"status":${q(s.status)}`;
  if (s.message) out += `,"message":${q(s.message)}`;
  if (s.reason) out += `,"reason":${q(s.reason)}`;
  if (s.details !== undefined && s.details !== null) out += `,"details":${q(s.details)}`;
  if (s.code) out += `,"code":${s.code}`;
  return `${out}}`;
}

function objectJson(obj: unknown): string {
  if (typeof obj === 'object' && obj !== null && !Array.isArray(obj) && 'metadata' in obj) {
    const bytes = encodedJsonOf(obj as KubeObject);
    if (bytes) return bytes.toString('utf8');
  }
  return q(obj) ?? 'null';
}

/** The event as kube's JSON serializer writes it, without the trailing newline. */
export function encodeEventJson(ev: AuditEvent): string {
  let out = `{"kind":"Event","apiVersion":${q(ev.apiVersion)},"level":${q(ev.level)},"auditID":${q(ev.auditID)},"stage":${q(ev.stage)},"requestURI":${q(ev.requestURI)},"verb":${q(ev.verb)},"user":${userInfo(ev.user)}`;
  if (ev.impersonatedUser) out += `,"impersonatedUser":${userInfo(ev.impersonatedUser)}`;
  if (ev.sourceIPs && ev.sourceIPs.length > 0) out += `,"sourceIPs":${q(ev.sourceIPs)}`;
  if (ev.userAgent) out += `,"userAgent":${q(ev.userAgent)}`;
  if (ev.objectRef) out += `,"objectRef":${objectRef(ev.objectRef)}`;
  if (ev.responseStatus) out += `,"responseStatus":${responseStatus(ev.responseStatus)}`;
  if (ev.requestObject !== undefined) out += `,"requestObject":${objectJson(ev.requestObject)}`;
  if (ev.responseObject !== undefined) out += `,"responseObject":${objectJson(ev.responseObject)}`;
  out += `,"requestReceivedTimestamp":${q(ev.requestReceivedTimestamp)},"stageTimestamp":${q(ev.stageTimestamp)}`;
  if (ev.annotations && Object.keys(ev.annotations).length > 0) out += `,"annotations":${sortedMap(ev.annotations)}`;
  out += '}';
  return needsEscape.test(out) ? out.replace(escapeAll, (c) => goEscapes[c] as string) : out;
}

/**
 * The impersonation headers of a request (kube's buildImpersonationRequests): Impersonate-User
 * (first value; a system:serviceaccount:<namespace>:<name> user is a service account), every
 * Impersonate-Group line, every Impersonate-Extra-<key> line (the key lowercased, then
 * percent-decoded) and Impersonate-Uid, each one thing to impersonate that must be authorized.
 * Groups, extra or a uid without a user are refused. Read from rawHeaders so repeated lines stay
 * separate values, as Go's http.Header keeps them.
 */
import type { IncomingMessage } from 'node:http';
import { newBadRequest } from '../apierrors/factories.js';
import type { StatusError } from '../apierrors/status-error.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../validation/label-values.js';

/** One thing the requester asks to act as (kube builds these as ObjectReferences). */
export type ImpersonationRequest =
  | { readonly kind: 'ServiceAccount'; readonly namespace: string; readonly name: string }
  | { readonly kind: 'User'; readonly name: string }
  | { readonly kind: 'Group'; readonly name: string }
  | { readonly kind: 'UserExtra'; readonly key: string; readonly value: string }
  | { readonly kind: 'UID'; readonly uid: string };

const prefix = 'impersonate-';
const extraPrefix = 'impersonate-extra-';
const serviceAccountPrefix = 'system:serviceaccount:';
const none: readonly ImpersonationRequest[] = Object.freeze([]);

/** kube's serviceaccount.SplitUsername: namespace and name of a service account user, or undefined. */
export function splitServiceAccountUsername(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(serviceAccountPrefix)) return undefined;
  const parts = username.slice(serviceAccountPrefix.length).split(':');
  if (parts.length !== 2) return undefined;
  const [namespace, name] = parts as [string, string];
  if (isDNS1123Label(namespace).length > 0 || isDNS1123Subdomain(name).length > 0) return undefined;
  return { namespace, name };
}

/** Go's url.PathUnescape, or the key as given when it is malformed (kube keeps it then). */
function unescapeExtraKey(key: string): string {
  if (!key.includes('%')) return key;
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

/** How kube's %v prints the ObjectReference of a request (Kind Namespace Name UID APIVersion ResourceVersion FieldPath). */
function goReference(r: ImpersonationRequest): string {
  const v1 = 'authentication.k8s.io/v1';
  switch (r.kind) {
    case 'ServiceAccount':
      return `{ServiceAccount ${r.namespace} ${r.name}    }`;
    case 'User':
    case 'Group':
      return `{${r.kind}  ${r.name}    }`;
    case 'UserExtra':
      return `{UserExtra  ${r.value}  ${v1}  ${r.key}}`;
    case 'UID':
      return `{UID  ${r.uid}  ${v1}  }`;
  }
}

/**
 * The impersonation requests of req, in kube's order (user, groups, extra, uid); empty when it
 * asks for none. Cheap when no header starts with "impersonate-" (the common case).
 */
export function impersonationRequests(req: IncomingMessage): readonly ImpersonationRequest[] | StatusError {
  const raw = req.rawHeaders;
  let first = -1;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    // Most requests carry no such header: look at one character before lowercasing anything.
    if (name.length >= prefix.length && (name.charCodeAt(0) | 0x20) === 0x69 && name.toLowerCase().startsWith(prefix)) {
      first = i;
      break;
    }
  }
  if (first < 0) return none;
  let user: string | undefined;
  let uid: string | undefined;
  const groups: ImpersonationRequest[] = [];
  const extras: ImpersonationRequest[] = [];
  for (let i = first; i < raw.length; i += 2) {
    const lower = (raw[i] as string).toLowerCase();
    if (!lower.startsWith(prefix)) continue;
    const value = raw[i + 1] as string;
    if (lower === 'impersonate-user') user ??= value;
    else if (lower === 'impersonate-uid') uid ??= value;
    else if (lower === 'impersonate-group') groups.push({ kind: 'Group', name: value });
    else if (lower.startsWith(extraPrefix)) extras.push({ kind: 'UserExtra', key: unescapeExtraKey(lower.slice(extraPrefix.length)), value });
  }
  const out: ImpersonationRequest[] = [];
  const hasUser = user !== undefined && user !== '';
  if (hasUser) {
    const sa = splitServiceAccountUsername(user as string);
    out.push(sa ? { kind: 'ServiceAccount', ...sa } : { kind: 'User', name: user as string });
  }
  out.push(...groups, ...extras);
  if (uid) out.push({ kind: 'UID', uid });
  if (!hasUser && out.length > 0) return newBadRequest(`requested [${out.map(goReference).join(' ')}] without impersonating a user`);
  return out;
}

/** Removes every impersonation header from req (nothing downstream may act on them again). */
export function stripImpersonationHeaders(req: IncomingMessage): void {
  for (const name of Object.keys(req.headers)) if (name.startsWith(prefix)) delete req.headers[name];
}

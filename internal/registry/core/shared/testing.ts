/**
 * Fixtures for the registry's tests: request contexts as the request-info filter builds them,
 * list options, and UpdatedObjectInfo values for PUT-like and PATCH-like updates. Test code only.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { RequestContext } from '../../../request/context.js';
import { parseRequestInfo } from '../../../request/request-info.js';
import { everythingFields, parseFieldSelector } from '../../../selectors/fields.js';
import { everythingLabels, parseLabelSelector } from '../../../selectors/labels.js';
import { listEverything, type DeleteOptions, type ListOptions, type UpdatedObjectInfo } from '../../interface.js';

/** The context of a request with this method and path (e.g. POST /api/v1/namespaces/ns/pods). */
export function requestContext(method: string, path: string): RequestContext {
  return {
    requestInfo: parseRequestInfo(method, path, new URLSearchParams()),
    user: { name: 'tester', groups: ['system:authenticated'] },
    signal: new AbortController().signal,
    warnings: [],
    userAgent: 'registry-test',
    receivedAt: Date.now(),
  };
}

/** List options selecting by the given selectors (everything when absent). */
export function listOptions(sel: { field?: string; label?: string } = {}): ListOptions {
  return {
    ...listEverything,
    labelSelector: sel.label ? parseLabelSelector(sel.label) : everythingLabels,
    fieldSelector: sel.field ? parseFieldSelector(sel.field) : everythingFields,
  };
}

/** An update whose new object is obj as given (a PUT body). */
export function putBody(obj: KubeObject): UpdatedObjectInfo {
  return { updatedObject: async () => structuredClone(obj) };
}

/** An update computed from the stored object (a PATCH); throws when there is none. */
export function patchWith(fn: (current: KubeObject) => void): UpdatedObjectInfo {
  return {
    updatedObject: async (_ctx, old) => {
      if (!old) throw new Error('patch of a missing object');
      const next = structuredClone(old);
      fn(next);
      return next;
    },
  };
}

/** Delete options with only the given fields set. */
export function deleteOptions(opts: Partial<DeleteOptions> = {}): DeleteOptions {
  return { dryRun: false, ...opts };
}

/** The Status of a rejected promise's StatusError (for assertions on code, reason and causes). */
export async function statusOf(p: Promise<unknown>): Promise<{ code?: number; reason?: string; message?: string; details?: { causes?: Array<{ field?: string; message?: string; reason?: string }> } }> {
  try {
    await p;
  } catch (err) {
    const status = (err as { status?: unknown }).status;
    if (status) return status as never;
    throw err;
  }
  throw new Error('expected the call to fail');
}

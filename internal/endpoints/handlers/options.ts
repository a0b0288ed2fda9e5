/**
 * Query parameters of the resource verbs, parsed and validated as kube-apiserver does: decode
 * failures are 400 BadRequest, invalid combinations of list/watch options are 422 Invalid
 * (ListOptions.meta.k8s.io), unsupported field selectors are 400.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { newBadRequest, newInvalid } from '../../apierrors/factories.js';
import type { SelectableFields } from '../../registry/generic/strategy.js';
import type { DeleteOptions, GetOptions, ListOptions } from '../../registry/interface.js';
import { parseFieldSelector, SelectorParseError, type FieldSelector } from '../../selectors/fields.js';
import { parseLabelSelector } from '../../selectors/labels.js';
import type { ResourceVersionMatch } from '../../storage/interface.js';
import { parseInt64Error, queryBool } from '../../request/query-params.js';
import { fieldErrorCause, forbidden, notSupported, type FieldError } from '../../validation/field-error.js';

/**
 * A boolean query parameter as kube's parameter codec decodes it (Convert_Slice_string_To_bool):
 * "0" and "false" in any case are false, anything else (the empty value too) true.
 */
export function parseBool(value: string | null): boolean | undefined {
  return queryBool(value);
}

/**
 * An int64 query parameter as kube's parameter codec decodes it (strconv.ParseInt): present but
 * empty or not a number is 400. Past 2^53 the value is kept approximately (a limit or a timeout).
 */
export function parseInteger(value: string | null): number | undefined {
  if (value === null) return undefined;
  const err = parseInt64Error(value);
  if (err) throw newBadRequest(err);
  return Number(value);
}

/** Parses ?resourceVersion for get. */
export function parseGetOptions(query: URLSearchParams): GetOptions {
  return { resourceVersion: query.get('resourceVersion') ?? '' };
}

function selectorError(err: unknown): never {
  if (err instanceof SelectorParseError) throw newBadRequest(err.message);
  throw err;
}

/** Rewrites and checks field selector labels against what the resource supports (kube's ConvertFieldLabel). */
export function convertFieldSelector(sel: FieldSelector, fields: SelectableFields, namespaced: boolean): FieldSelector {
  if (sel.empty()) return sel;
  return sel.transform((label, value) => {
    const stored = fields.aliases?.[label] ?? label;
    if (stored === 'metadata.name' || (stored === 'metadata.namespace' && (namespaced || fields.style === 'meta'))) return [stored, value];
    if (fields.extra.includes(stored)) return [stored, value];
    if (fields.style === 'core') throw newBadRequest(`field label not supported: ${label}`);
    throw newBadRequest(`${JSON.stringify(label)} is not a known field selector: only "metadata.name", "metadata.namespace"`);
  });
}

function invalidListOptions(errs: FieldError[]): never {
  throw newInvalid('meta.k8s.io', 'ListOptions', '', errs.map(fieldErrorCause));
}

/**
 * Parses and validates list/watch parameters; watchPath is true for the deprecated /watch/ paths;
 * watchList is the WatchList gate (off: a watch may not ask for sendInitialEvents, and a watch
 * from "" or "0" is not turned into a watch list).
 */
export function parseListOptions(query: URLSearchParams, fields: SelectableFields, namespaced: boolean, watchPath: boolean, watchList = false): ListOptions {
  let labelSelector;
  let fieldSelector;
  try {
    labelSelector = parseLabelSelector(query.get('labelSelector') ?? '');
  } catch (err) {
    selectorError(err);
  }
  try {
    fieldSelector = parseFieldSelector(query.get('fieldSelector') ?? '');
  } catch (err) {
    selectorError(err);
  }
  const watch = watchPath || (parseBool(query.get('watch')) ?? false);
  const resourceVersion = query.get('resourceVersion') ?? '';
  let resourceVersionMatch = (query.get('resourceVersionMatch') ?? '') as ResourceVersionMatch;
  const continueToken = query.get('continue') ?? '';
  let sendInitialEvents = parseBool(query.get('sendInitialEvents'));
  const limit = Math.max(0, parseInteger(query.get('limit')) ?? 0);
  const timeoutSeconds = parseInteger(query.get('timeoutSeconds'));
  const allowWatchBookmarks = parseBool(query.get('allowWatchBookmarks')) ?? false;

  const errs: FieldError[] = [];
  if (watch) {
    if (sendInitialEvents !== undefined && resourceVersionMatch !== 'NotOlderThan') {
      errs.push(forbidden('resourceVersionMatch', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
    }
    if (sendInitialEvents !== undefined && !watchList) {
      errs.push(forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled'));
    }
    if (resourceVersionMatch) {
      if (sendInitialEvents === undefined) {
        errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
      }
      if (resourceVersionMatch !== 'NotOlderThan') errs.push(notSupported('resourceVersionMatch', resourceVersionMatch, ['NotOlderThan']));
      if (continueToken) errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
    }
  } else {
    if (resourceVersionMatch) {
      if (!resourceVersion) errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
      if (continueToken) errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
      if (resourceVersionMatch !== 'Exact' && resourceVersionMatch !== 'NotOlderThan') {
        errs.push(notSupported('resourceVersionMatch', resourceVersionMatch, ['Exact', 'NotOlderThan', '']));
      }
      if (resourceVersionMatch === 'Exact' && resourceVersion === '0') {
        errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
      }
    }
    if (sendInitialEvents !== undefined) errs.push(forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
  }
  if (errs.length > 0) invalidListOptions(errs);
  if (!watch && continueToken && resourceVersion && resourceVersion !== '0') {
    throw newBadRequest('specifying resource version is not allowed when using continue');
  }
  // kube's SetListOptionsDefaults with WatchList on: a watch from "" or "0" is a watch list from NotOlderThan.
  if (watchList && watch && sendInitialEvents === undefined && !resourceVersionMatch && (resourceVersion === '' || resourceVersion === '0')) {
    sendInitialEvents = true;
    resourceVersionMatch = 'NotOlderThan';
  }
  return {
    labelSelector: labelSelector as NonNullable<typeof labelSelector>,
    fieldSelector: convertFieldSelector(fieldSelector as FieldSelector, fields, namespaced),
    resourceVersion,
    resourceVersionMatch,
    limit,
    continueToken,
    watch,
    allowWatchBookmarks,
    ...(sendInitialEvents !== undefined ? { sendInitialEvents } : {}),
    ...(timeoutSeconds !== undefined ? { timeoutSeconds } : {}),
  };
}

const propagationPolicies = ['Foreground', 'Background', 'Orphan'] as const;

function deleteOptionsInvalid(errs: FieldError[]): never {
  throw newInvalid('meta.k8s.io', 'DeleteOptions', '', errs.map(fieldErrorCause));
}

/** Validates dryRun values: only "All" is known (kube's ValidateDryRun). */
export function parseDryRun(values: readonly unknown[]): boolean {
  for (const v of values) {
    if (v !== 'All') {
      throw newInvalid('meta.k8s.io', 'DeleteOptions', '', [fieldErrorCause(notSupported('dryRun', values, ['All']))]);
    }
  }
  return values.length > 0;
}

/**
 * Builds DeleteOptions from the body (a metav1.DeleteOptions, may be empty) and the query
 * (gracePeriodSeconds, propagationPolicy, orphanDependents, dryRun), query taking precedence as in kube.
 */
export function parseDeleteOptions(body: KubeObject | Record<string, unknown> | undefined, query: URLSearchParams): DeleteOptions {
  const b = (body ?? {}) as Record<string, unknown>;
  const kind = b.kind;
  if (kind !== undefined && kind !== 'DeleteOptions') {
    throw newBadRequest(`${String(kind)} in version "v1" cannot be handled as a DeleteOptions: the object provided is unrecognized (must be of type DeleteOptions)`);
  }
  let grace = typeof b.gracePeriodSeconds === 'number' ? b.gracePeriodSeconds : undefined;
  const qGrace = parseInteger(query.get('gracePeriodSeconds'));
  if (qGrace !== undefined) grace = qGrace;
  let orphan = typeof b.orphanDependents === 'boolean' ? b.orphanDependents : undefined;
  const qOrphan = parseBool(query.get('orphanDependents'));
  if (qOrphan !== undefined) orphan = qOrphan;
  let policy = typeof b.propagationPolicy === 'string' ? b.propagationPolicy : undefined;
  if (query.get('propagationPolicy')) policy = query.get('propagationPolicy') ?? undefined;
  const dryRunValues = query.getAll('dryRun').length > 0 ? query.getAll('dryRun') : Array.isArray(b.dryRun) ? (b.dryRun as unknown[]) : [];
  const errs: FieldError[] = [];
  if (orphan !== undefined && policy !== undefined) {
    errs.push({
      type: 'FieldValueInvalid',
      field: 'propagationPolicy',
      badValue: policy,
      detail: 'orphanDependents and deletionPropagation cannot be both set',
    });
  }
  if (policy !== undefined && !(propagationPolicies as readonly string[]).includes(policy)) {
    errs.push(notSupported('propagationPolicy', policy, [...propagationPolicies]));
  }
  if (errs.length > 0) deleteOptionsInvalid(errs);
  const dryRun = parseDryRun(dryRunValues);
  const pre = (typeof b.preconditions === 'object' && b.preconditions !== null ? b.preconditions : undefined) as
    | { uid?: unknown; resourceVersion?: unknown }
    | undefined;
  const preconditions =
    pre && (typeof pre.uid === 'string' || typeof pre.resourceVersion === 'string')
      ? {
          ...(typeof pre.uid === 'string' ? { uid: pre.uid } : {}),
          ...(typeof pre.resourceVersion === 'string' ? { resourceVersion: pre.resourceVersion } : {}),
        }
      : undefined;
  return {
    ...(grace !== undefined ? { gracePeriodSeconds: grace } : {}),
    ...(orphan !== undefined ? { orphanDependents: orphan } : {}),
    ...(policy !== undefined ? { propagationPolicy: policy as DeleteOptions['propagationPolicy'] } : {}),
    ...(preconditions ? { preconditions } : {}),
    dryRun,
  };
}

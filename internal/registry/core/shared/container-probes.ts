/**
 * Probes and lifecycle hooks of a container (kube's validateProbe, validateHandler and friends):
 * exactly one handler, well-formed ports, paths and schemes, non-negative timings, success
 * threshold 1 for liveness and startup probes, and sleep hooks within the grace period.
 */
import { childPath, forbidden, invalid, notSupported, required, type FieldError } from '../../../validation/field-error.js';
import { regexError } from '../../../validation/label-values.js';
import { validateNonnegativeField } from './field-immutable.js';
import { arrayAt, asObject, objectAt, stringAt, type JsonObject } from './json-value.js';
import { isValidPortName, isValidPortNum } from './ports.js';

const httpSchemes = ['HTTP', 'HTTPS'];
const httpHeaderNameFmt = '[-A-Za-z0-9]+';
const httpHeaderNameRegexp = new RegExp(`^${httpHeaderNameFmt}$`);

const present = (v: unknown): boolean => v !== undefined && v !== null;

/** ValidatePortNumOrName for an IntOrString kube always holds (absent is the integer 0). */
export function validatePortNumOrNameRequired(port: unknown, path: string): FieldError[] {
  if (typeof port === 'string') return isValidPortName(port).map((m) => invalid(path, port, m));
  const n = typeof port === 'number' ? port : 0;
  return isValidPortNum(n).map((m) => invalid(path, n, m));
}

function validateHTTPGet(http: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!stringAt(http, 'path')) errs.push(required(childPath(path, 'path'), ''));
  errs.push(...validatePortNumOrNameRequired(http.port, childPath(path, 'port')));
  const scheme = stringAt(http, 'scheme');
  if (!httpSchemes.includes(scheme)) errs.push(notSupported(childPath(path, 'scheme'), scheme, httpSchemes));
  for (const h of arrayAt(http, 'httpHeaders')) {
    const name = stringAt(asObject(h), 'name');
    if (!httpHeaderNameRegexp.test(name)) {
      errs.push(invalid(childPath(path, 'httpHeaders'), name, regexError("a valid HTTP header must consist of alphanumeric characters or '-'", httpHeaderNameFmt, 'X-Header-Name')));
    }
  }
  return errs;
}

function validateSleep(sleep: JsonObject, gracePeriod: number | undefined, path: string): FieldError[] {
  const seconds = typeof sleep.seconds === 'number' ? sleep.seconds : 0;
  if (gracePeriod === undefined || (seconds >= 0 && seconds <= gracePeriod)) return [];
  return [invalid(path, seconds, `must be non-negative and less than terminationGracePeriodSeconds (${gracePeriod})`)];
}

/** validateHandler over the handler kinds the caller allows (probes have grpc, lifecycle hooks have sleep). */
function validateHandler(handler: JsonObject, kinds: readonly string[], gracePeriod: number | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  for (const kind of kinds) {
    const h = objectAt(handler, kind);
    if (!h) continue;
    const p = childPath(path, kind);
    if (count > 0) {
      errs.push(forbidden(p, 'may not specify more than 1 handler type'));
      continue;
    }
    count++;
    if (kind === 'exec' && arrayAt(h, 'command').length === 0) errs.push(required(childPath(p, 'command'), ''));
    if (kind === 'httpGet') errs.push(...validateHTTPGet(h, p));
    if (kind === 'tcpSocket') errs.push(...validatePortNumOrNameRequired(h.port, childPath(p, 'port')));
    if (kind === 'grpc') errs.push(...validatePortNumOrNameRequired(typeof h.port === 'number' ? h.port : 0, childPath(p, 'port')));
    if (kind === 'sleep') errs.push(...validateSleep(h, gracePeriod, p));
  }
  if (count === 0) errs.push(required(path, 'must specify a handler type'));
  return errs;
}

/** Which probe: liveness and startup probes must succeed once; readiness probes may not set a grace period. */
export type ProbeKind = 'livenessProbe' | 'readinessProbe' | 'startupProbe';

/** Validates a container's probe of the given kind at path (nothing when absent). */
export function validateProbe(probe: JsonObject | undefined, kind: ProbeKind, gracePeriod: number | undefined, path: string): FieldError[] {
  if (!probe) return [];
  const errs = validateHandler(probe, ['exec', 'httpGet', 'tcpSocket', 'grpc'], gracePeriod, path);
  for (const f of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold']) {
    errs.push(...validateNonnegativeField(probe[f], childPath(path, f)));
  }
  const grace = probe.terminationGracePeriodSeconds;
  if (typeof grace === 'number' && grace <= 0) errs.push(invalid(childPath(path, 'terminationGracePeriodSeconds'), grace, 'must be greater than 0'));
  if (kind === 'readinessProbe' && present(grace)) {
    errs.push(invalid(childPath(path, 'terminationGracePeriodSeconds'), grace, 'must not be set for readinessProbes'));
  }
  const success = typeof probe.successThreshold === 'number' ? probe.successThreshold : 0;
  if (kind !== 'readinessProbe' && success !== 1) errs.push(invalid(childPath(path, 'successThreshold'), success, 'must be 1'));
  return errs;
}

/** validateLifecycle: postStart and preStop hooks, when present. */
export function validateLifecycle(lifecycle: JsonObject | undefined, gracePeriod: number | undefined, path: string): FieldError[] {
  if (!lifecycle) return [];
  const errs: FieldError[] = [];
  for (const hook of ['postStart', 'preStop']) {
    const h = objectAt(lifecycle, hook);
    if (h) errs.push(...validateHandler(h, ['exec', 'httpGet', 'tcpSocket', 'sleep'], gracePeriod, childPath(path, hook)));
  }
  return errs;
}

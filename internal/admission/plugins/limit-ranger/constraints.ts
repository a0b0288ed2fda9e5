/**
 * LimitRanger's checks of one resource against one LimitRange item (kube's minConstraint,
 * maxConstraint, maxRequestConstraint and limitRequestRatioConstraint), with kube's messages.
 * Each returns the violation's message, or undefined.
 */
import { Quantity, quantityFromJSON } from '../../../validation/quantity.js';

/** A resource list of parsed quantities. */
export type Quantities = Map<string, Quantity>;

/** resource.MaxMilliValue: the largest value whose milli form fits an int64. */
const maxMilliValue = (2n ** 63n - 1n) / 1000n;
const zero = quantityFromJSON('0');

/** Parses a JSON resource list; entries that are not quantities are left out (validation reports them). */
export function quantities(list: Record<string, unknown> | undefined): Quantities {
  const out: Quantities = new Map();
  if (!list) return out;
  for (const [k, v] of Object.entries(list)) {
    try {
      out.set(k, quantityFromJSON(v));
    } catch {
      // not a quantity: pod validation refuses it
    }
  }
  return out;
}

/** The three values at one precision: milli when none overflows, whole units otherwise. */
function comparable(request: Quantity, limit: Quantity, enforced: Quantity): [bigint, bigint, bigint] {
  const r = request.value();
  const l = limit.value();
  const e = enforced.value();
  if (r <= maxMilliValue && l <= maxMilliValue && e <= maxMilliValue) return [request.milliValue(), limit.milliValue(), enforced.milliValue()];
  return [r, l, e];
}

/** minimum <resource> per <type>: the request (and any limit) must be at least enforced. */
export function minConstraint(limitType: string, name: string, enforced: Quantity, request: Quantities, limit: Quantities): string | undefined {
  const req = request.get(name);
  const lim = limit.get(name);
  const [r, l, e] = comparable(req ?? zero, lim ?? zero, enforced);
  if (!req) return `minimum ${name} usage per ${limitType} is ${enforced.toString()}.  No request is specified`;
  if (r < e) return `minimum ${name} usage per ${limitType} is ${enforced.toString()}, but request is ${req.toString()}`;
  if (lim && l < e) return `minimum ${name} usage per ${limitType} is ${enforced.toString()}, but limit is ${lim.toString()}`;
  return undefined;
}

/** maximum <resource> per <type>: a limit is required and neither it nor the request may exceed enforced. */
export function maxConstraint(limitType: string, name: string, enforced: Quantity, request: Quantities, limit: Quantities): string | undefined {
  const req = request.get(name);
  const lim = limit.get(name);
  const [r, l, e] = comparable(req ?? zero, lim ?? zero, enforced);
  if (!lim) return `maximum ${name} usage per ${limitType} is ${enforced.toString()}.  No limit is specified`;
  if (l > e) return `maximum ${name} usage per ${limitType} is ${enforced.toString()}, but limit is ${lim.toString()}`;
  if (req && r > e) return `maximum ${name} usage per ${limitType} is ${enforced.toString()}, but request is ${req.toString()}`;
  return undefined;
}

/** maximum for types without limits (PersistentVolumeClaim): the request is required and bounded. */
export function maxRequestConstraint(limitType: string, name: string, enforced: Quantity, request: Quantities): string | undefined {
  const req = request.get(name);
  const [r, , e] = comparable(req ?? zero, zero, enforced);
  if (!req) return `maximum ${name} usage per ${limitType} is ${enforced.toString()}.  No request is specified`;
  if (r > e) return `maximum ${name} usage per ${limitType} is ${enforced.toString()}, but request is ${req.toString()}`;
  return undefined;
}

/** maxLimitRequestRatio: limit / request may not exceed enforced; both must be set and non-zero. */
export function limitRequestRatioConstraint(limitType: string, name: string, enforced: Quantity, request: Quantities, limit: Quantities): string | undefined {
  const req = request.get(name);
  const lim = limit.get(name);
  const [r, l] = comparable(req ?? zero, lim ?? zero, enforced);
  if (!req || r === 0n) return `${name} max limit to request ratio per ${limitType} is ${enforced.toString()}, but no request is specified or request is 0`;
  if (!lim || l === 0n) return `${name} max limit to request ratio per ${limitType} is ${enforced.toString()}, but no limit is specified or limit is 0`;
  const displayed = Number(l) / Number(r);
  let observed = displayed;
  let max = Number(enforced.value());
  if (enforced.value() <= maxMilliValue) {
    observed = displayed * 1000;
    max = Number(enforced.milliValue());
  }
  if (observed > max) return `${name} max limit to request ratio per ${limitType} is ${enforced.toString()}, but provided ratio is ${displayed.toFixed(6)}`;
  return undefined;
}

/** list += other, per resource. */
export function addResourceList(list: Quantities, other: Quantities): void {
  for (const [k, q] of other) {
    const have = list.get(k);
    list.set(k, have ? have.add(q) : q);
  }
}

/** list = max(list, other), per resource of other. */
export function maxResourceList(list: Quantities, other: Quantities): void {
  for (const [k, q] of other) {
    const have = list.get(k);
    if (!have || q.cmp(have) > 0) list.set(k, q);
  }
}

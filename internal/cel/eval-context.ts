/**
 * The state of the one CEL evaluation running now: its runtime cost so far against its limit, and
 * the authorizer the authz library asks. Evaluation is synchronous, so one module-level slot holds
 * it for the library functions to reach; runWith sets and restores it around each evaluation.
 */
import type { AuthorizationAttributes, AuthorizationDecision, MaybePromise } from '../authz/interface.js';
import type { UserInfo } from '../request/context.js';

/** kube's message when an expression's runtime cost passes its limit (cel-go's text). */
export const costLimitExceededMessage = 'operation cancelled: actual cost limit exceeded';

/** Thrown inside evaluation when the cost limit is passed; ends the evaluation. */
export class CostLimitExceeded extends Error {
  constructor() {
    super(costLimitExceededMessage);
  }
}

/** Thrown when an authorization check needs an asynchronous answer not yet known; evaluateAsync awaits it and evaluates again. */
export class AuthorizationPending extends Error {}

/** What the authz library of one evaluation asks. */
export interface AuthzBinding {
  /** The request's user (authorizer.serviceAccount(...) replaces it). */
  readonly user: UserInfo;
  /** The server's authorizer. */
  authorize(attrs: AuthorizationAttributes): MaybePromise<AuthorizationDecision>;
  /** Decisions already known by their attributes' key (kept across re-evaluations of one request). */
  readonly decisions: Map<string, AuthorizationDecision>;
  /** Decisions being awaited, by key. */
  readonly pending: Map<string, Promise<AuthorizationDecision>>;
}

/** One evaluation's state. */
export interface EvalState {
  cost: number;
  readonly limit: number;
  readonly authz: AuthzBinding | undefined;
}

let current: EvalState | undefined;

/** Runs fn with state as the current evaluation, restoring the previous one after. */
export function runWith<T>(state: EvalState, fn: () => T): T {
  const previous = current;
  current = state;
  try {
    return fn();
  } finally {
    current = previous;
  }
}

/** Adds cost to the current evaluation; throws CostLimitExceeded past its limit. */
export function charge(cost: number): void {
  const s = current;
  if (!s) return;
  s.cost += cost;
  if (s.cost > s.limit) throw new CostLimitExceeded();
}

/** The authorizer binding of the current evaluation, if it has one. */
export function currentAuthz(): AuthzBinding | undefined {
  return current?.authz;
}

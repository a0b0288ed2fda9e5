/**
 * The etcd3 store's one observation hook: told of every etcd request the store makes, after it
 * finishes, with what it was and how long it took. Metrics (etcd_request_duration_seconds) and
 * tracing (spans from startedAt to now) both hang off it, so the store itself stays free of either.
 */

/**
 * What the request was, in kube's operation names: get (one key), list (a range), listWithCount
 * (counting a prefix), create, update and delete (the write transactions); and watch, the start of
 * an etcd watch (kube does not time that one in its metrics).
 */
export type EtcdOperation = 'get' | 'list' | 'listWithCount' | 'create' | 'update' | 'delete' | 'watch';

/**
 * Called once per etcd request when it completes. type is kube's "type" label: the resource
 * ("pods", "deployments.apps") of the store view that made it, "" for the root store, or the key
 * prefix for listWithCount. startedAt is performance.now() when the request began; error is what
 * it failed with (undefined on success). Must not throw; must be cheap (it runs on every request).
 */
export type EtcdRequestObserver = (operation: EtcdOperation, type: string, startedAt: number, error: unknown) => void;

/**
 * The endpoint reconciler of the default/kubernetes Service (kube's pkg/controlplane/reconcilers):
 * which API servers' addresses the Service's Endpoints and EndpointSlice list.
 */

/** One port of the kubernetes Service's endpoints (kube's corev1.EndpointPort). */
export interface EndpointPort {
  readonly name: string;
  readonly port: number;
  readonly protocol: string;
}

/**
 * Keeps the kubernetes Service's endpoints. Every API server calls reconcile periodically with its
 * own address; all of them must use the same reconciler type and the same ports.
 */
export interface EndpointReconciler {
  /** Records this server (lease, or count) and brings the Endpoints and EndpointSlice in line. */
  reconcile(ip: string, ports: readonly EndpointPort[], reconcilePorts: boolean): Promise<void>;
  /** Takes this server out (its lease, its address), at graceful shutdown. */
  remove(ip: string, ports: readonly EndpointPort[]): Promise<void>;
  /** Every later reconcile becomes a no-op (the pre-shutdown hook calls it first). */
  stopReconciling(): void;
}

/** --endpoint-reconciler-type values, in kube's order (reconcilers.AllTypes). */
export const endpointReconcilerTypes = ['master-count', 'lease', 'none'] as const;

/** One --endpoint-reconciler-type. */
export type EndpointReconcilerType = (typeof endpointReconcilerTypes)[number];

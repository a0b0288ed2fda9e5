/**
 * The loops kube-apiserver runs inside itself that Capstan adds per feature (garbage collection,
 * quota, service IP and NodePort repair, event expiry, bootstrap objects, ...), each started once
 * the server serves and the system namespaces exist, and stopped when the server stops. Each
 * controller lives in internal/controllers/<name>/ and is listed here once.
 */
import type { Etcd3 } from 'etcd3';
import type { SharedInformers, StorageLookup } from '../controllers/shared-informers.js';
import type { Logger } from '../observability/logging.js';
import type { ServerMetrics } from '../observability/metrics.js';
import type { Storage } from '../storage/interface.js';
import type { ServerOptions } from './options/flags.js';
import { apfBootstrapController, systemPriorityClassesController } from '../controllers/bootstrap-objects/controllers.js';
import { garbageCollectorController } from '../controllers/garbage-collector/controller.js';

/** What an in-server controller is started with. */
export interface InServerControllerDeps {
  readonly storageOf: StorageLookup;
  readonly informers: SharedInformers;
  /** The raw storage (etcd, through the watch cache where it is on). */
  readonly storage: Storage;
  /** The main etcd client (for leases and the like; writes keep kube's transaction shapes). */
  readonly etcd: Etcd3;
  readonly options: ServerOptions;
  readonly log: Logger;
  readonly metrics: ServerMetrics;
  /** Aborted when the server stops. */
  readonly shutdown: AbortSignal;
  /** For a controller with a postStartHook: call once its work is done (readyz then passes it). */
  readonly hookDone: () => void;
}

/** One loop: start returns its stop (which may finish asynchronously). */
export interface InServerController {
  readonly name: string;
  /**
   * kube's post-start hook this controller is (e.g. "scheduling/bootstrap-system-priority-classes"):
   * readyz and healthz check poststarthook/<name>, and the server is ready, once it calls hookDone.
   */
  readonly postStartHook?: string;
  start(deps: InServerControllerDeps): () => void | Promise<void>;
}

/** Every in-server controller, in start order. */
export const inServerControllers: readonly InServerController[] = [
  systemPriorityClassesController,
  apfBootstrapController,
  garbageCollectorController,
];

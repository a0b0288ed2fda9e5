/**
 * The loops kube-apiserver runs inside itself that Capstan adds per feature (garbage collection,
 * quota, service IP and NodePort repair, event expiry, bootstrap objects, ...), each started once
 * the server serves and the system namespaces exist, and stopped when the server stops. Each
 * controller lives in internal/controllers/<name>/ and is listed here once.
 */
import type { Etcd3 } from 'etcd3';
import { pvProtectionController } from '../controllers/storage-protection/pv-protection.js';
import { pvcProtectionController } from '../controllers/storage-protection/pvc-protection.js';
import { rootCAPublisher } from '../controllers/root-ca-publisher/controller.js';
import { serviceAccountsController } from '../controllers/serviceaccounts/controller.js';
import { defaultServiceCIDRController } from '../controllers/default-service-cidr/controller.js';
import { nodePortRepairController } from '../controllers/node-port-repair/controller.js';
import { serviceIPRepairController } from '../controllers/service-ip-repair/controller.js';
import { resourceQuotaController } from '../controllers/resource-quota/register.js';
import { admissionPolicyStatusController } from '../controllers/admission-policy-status/controller.js';
import type { SharedInformers, StorageLookup } from '../controllers/shared-informers.js';
import type { Authorizer } from '../authz/interface.js';
import { csrApprovingController } from '../controllers/certificates/approver.js';
import { csrSigningController } from '../controllers/certificates/signer.js';
import type { Logger } from '../observability/logging.js';
import type { ServerMetrics } from '../observability/metrics.js';
import type { Storage } from '../storage/interface.js';
import type { ServerOptions } from './options/flags.js';
import { apfBootstrapController, systemPriorityClassesController } from '../controllers/bootstrap-objects/controllers.js';
import { garbageCollectorController } from '../controllers/garbage-collector/controller.js';
import { clusterAuthenticationTrustController } from '../aggregator/authentication-trust.js';
import { crdEstablishingController, crdFinalizerController, crdNamingController, crdNonStructuralSchemaController } from '../apiextensions/controllers/register.js';
import { structuralSchemaErrors } from '../apiextensions/validation/non-structural.js';

/** The resources served at run time (custom resources), as the installer reports them. */
export interface DynamicResourceSource {
  /** One entry per group/resource served now. */
  dynamicResources(): ReadonlyArray<{ readonly group: string; readonly resource: string; readonly kind: string; readonly version: string; readonly namespaced: boolean }>;
  /** Calls listener after every change of what is served. */
  onChange(listener: () => void): void;
}

/** What an in-server controller is started with. */
export interface InServerControllerDeps {
  readonly storageOf: StorageLookup;
  readonly informers: SharedInformers;
  /** The raw storage (etcd, through the watch cache where it is on). */
  readonly storage: Storage;
  /** The main etcd client (for leases and the like; writes keep kube's transaction shapes). */
  readonly etcd: Etcd3;
  readonly options: ServerOptions;
  /** PEM of the CA clients verify the API server with (the serving certificate's CA), when known. */
  readonly rootCA?: string;
  readonly log: Logger;
  readonly metrics: ServerMetrics;
  /** Aborted when the server stops. */
  readonly shutdown: AbortSignal;
  /** For a controller with a postStartHook: call once its work is done (readyz then passes it). */
  readonly hookDone: () => void;
  /** Custom resources as they come and go (controllers that follow every resource: garbage collection). */
  readonly served?: DynamicResourceSource;
  /** The server's authorizer, read when used (kcm's SubjectAccessReviews, e.g. CSR approving). */
  readonly authorizer?: () => Authorizer;
}

/**
 * What start returns: the stop (which may finish asynchronously), optionally carrying synced, a
 * promise of the loop's first pass that the server's readiness waits for (kube's post-start hooks
 * that gate readiness, e.g. the default ServiceCIDR and the service repair loops). It must settle.
 */
export type InServerControllerStop = (() => void | Promise<void>) & { readonly synced?: Promise<void> };

/** One loop: start returns its stop. */
export interface InServerController {
  /** Its name; for a kube-controller-manager loop, KCM's name, which --controllers selects it by. */
  readonly name: string;
  /**
   * Set for the loops kube runs in kube-controller-manager (Capstan has none, so it runs them here):
   * --controllers may turn them off, e.g. when a real kube-controller-manager runs against Capstan.
   * The value is KCM's older alias ("serviceaccount" for "serviceaccount-controller").
   */
  readonly controllerManagerAlias?: string;
  /**
   * kube's post-start hook this controller is (e.g. "scheduling/bootstrap-system-priority-classes"):
   * readyz and healthz check poststarthook/<name>, and the server is ready, once it calls hookDone.
   */
  readonly postStartHook?: string;
  start(deps: InServerControllerDeps): InServerControllerStop;
}

/** Every in-server controller, in start order. */
export const inServerControllers: readonly InServerController[] = [
  serviceAccountsController,
  rootCAPublisher,
  defaultServiceCIDRController,
  serviceIPRepairController,
  nodePortRepairController,
  resourceQuotaController,
  admissionPolicyStatusController,
  pvcProtectionController,
  pvProtectionController,
  systemPriorityClassesController,
  apfBootstrapController,
  garbageCollectorController,
  crdNamingController,
  crdEstablishingController,
  crdNonStructuralSchemaController(structuralSchemaErrors),
  crdFinalizerController,
  clusterAuthenticationTrustController,
  csrApprovingController,
  csrSigningController,
];

/**
 * The controllers that are the post-start hook of one API group's storage provider in kube, by
 * controller name: kube adds such a hook only when the group is installed, so with every version of
 * the group off (--runtime-config) neither the loop nor its readyz check exists.
 */
export const storageProviderHookGroups: Readonly<Record<string, string>> = {
  [systemPriorityClassesController.name]: 'scheduling.k8s.io',
  [apfBootstrapController.name]: 'flowcontrol.apiserver.k8s.io',
};

/** The in-server controllers to run when the given groups are served. */
export function controllersFor(servesGroup: (group: string) => boolean): readonly InServerController[] {
  return inServerControllers.filter((c) => {
    const group = storageProviderHookGroups[c.name];
    return group === undefined || servesGroup(group);
  });
}

/** A kube-controller-manager loop as --controllers names it. */
export interface ControllerManagerLoop {
  readonly name: string;
  readonly controllerManagerAlias: string;
}

/** The kube-controller-manager loops server.ts starts itself (they need handles these deps do not carry). */
export const serverStartedLoops: readonly ControllerManagerLoop[] = [
  { name: 'namespace-controller', controllerManagerAlias: 'namespace' },
  { name: 'serviceaccount-token-controller', controllerManagerAlias: 'serviceaccount-token' },
  { name: 'clusterrole-aggregation-controller', controllerManagerAlias: 'clusterrole-aggregation' },
];

/** Every kube-controller-manager loop Capstan runs, which --controllers selects from. */
export function controllerManagerLoops(): ControllerManagerLoop[] {
  const listed = inServerControllers.filter((c): c is InServerController & ControllerManagerLoop => c.controllerManagerAlias !== undefined);
  return [...serverStartedLoops, ...listed];
}

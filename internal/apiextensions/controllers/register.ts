/**
 * The apiextensions-apiserver controllers as in-server controllers: kube starts the naming,
 * establishing, NonStructuralSchema condition and finalizer controllers in its
 * "start-apiextensions-controllers" post-start hook (which only starts them; the readyz check of
 * that name is listed with the other apiextensions hooks by the serving side). Each reads CRDs
 * through the shared informer and writes through customresourcedefinitions/status.
 */
import type { InServerController, InServerControllerDeps } from '../../server/in-server-controllers.js';
import { crdGroup, crdResource, crdStatusUpdater } from './crd-status.js';
import { startEstablishingController } from './establishing/controller.js';
import { startFinalizerController } from './finalizer/controller.js';
import type { CrdControllerDeps, RunningController, StructuralViolations } from './interface.js';
import { startNamingController } from './naming/controller.js';
import { startNonStructuralSchemaController } from './nonstructural-schema/controller.js';

/** The common dependencies from the server's, or undefined when CRDs are not served. */
function crdDeps(deps: InServerControllerDeps): CrdControllerDeps | undefined {
  const status = deps.storageOf(crdGroup, crdResource, 'status');
  if (!status || !deps.storageOf(crdGroup, crdResource)) return undefined;
  return { informer: deps.informers.get(crdGroup, crdResource), updateStatus: crdStatusUpdater(status), log: deps.log };
}

function controller(name: string, run: (crd: CrdControllerDeps, deps: InServerControllerDeps) => RunningController): InServerController {
  return {
    name,
    start(deps) {
      const crd = crdDeps(deps);
      const running = crd ? run(crd, deps) : undefined;
      return () => running?.stop();
    },
  };
}

/** kube's NamingConditionController. */
export const crdNamingController = controller('crd-naming-condition-controller', (crd) => startNamingController(crd));

/** kube's EstablishingController; waits 5 s before establishing when --apiserver-count is above 1. */
export const crdEstablishingController = controller('crd-establishing-controller', (crd, deps) =>
  startEstablishingController(crd, { apiserverCount: deps.options.endpointReconciler?.apiserverCount ?? 1 }),
);

/** kube's CRDFinalizer, deleting instances through the served resource's storage. */
export const crdFinalizerController = controller('crd-finalizer', (crd, deps) =>
  startFinalizerController(crd, { instanceStorage: (group, plural) => deps.storageOf(group, plural), signal: deps.shutdown }),
);

/** kube's NonStructuralSchema ConditionController over the given structural-schema check. */
export function crdNonStructuralSchemaController(violations: StructuralViolations): InServerController {
  return controller('crd-nonstructuralschema-condition-controller', (crd) => startNonStructuralSchemaController(crd, violations));
}

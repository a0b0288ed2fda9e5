/**
 * DefaultIngressClass (kube's admission plugin of that name): an Ingress created without
 * spec.ingressClassName and without the kubernetes.io/ingress.class annotation gets the default
 * IngressClass: the one annotated ingressclass.kubernetes.io/is-default-class "true", the newest
 * when several are.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { Informer } from '../../../controllers/informer.js';
import type { RequestContext } from '../../../request/context.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin } from '../../interface.js';
import { waitForReady } from '../informer-ready.js';
import { newestDefaultClass } from '../newest-default-class.js';

const isDefault = (c: KubeObject) => c.metadata.annotations?.['ingressclass.kubernetes.io/is-default-class'] === 'true';

/** The DefaultIngressClass plugin over the IngressClass informer. */
export class DefaultIngressClass implements AdmissionPlugin {
  readonly name = 'DefaultIngressClass';

  constructor(private readonly ingressClasses: Informer) {}

  handles(operation: AdmissionOperation): boolean {
    return operation === 'CREATE';
  }

  async admit(attrs: AdmissionAttributes, _ctx: RequestContext): Promise<void> {
    if (attrs.resource !== 'ingresses' || attrs.group !== 'networking.k8s.io' || attrs.subresource !== '' || !attrs.object) return;
    const ing = attrs.object as KubeObject & { spec?: { ingressClassName?: string | null } };
    if (ing.spec?.ingressClassName !== undefined && ing.spec.ingressClassName !== null) return;
    if (ing.metadata.annotations?.['kubernetes.io/ingress.class'] !== undefined) return;
    await waitForReady(attrs, [this.ingressClasses]);
    const def = newestDefaultClass(this.ingressClasses.list(), isDefault);
    if (!def) return;
    ing.spec = { ...(ing.spec ?? {}), ingressClassName: def.metadata.name ?? '' };
  }
}

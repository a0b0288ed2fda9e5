/**
 * The PodSecurity admission plugin (kube's plugin/pkg/admission/security/podsecurity): a
 * validating plugin for creates and updates of namespaces, pods and pod-template-bearing workload
 * resources. It reads namespaces and pods from the shared informers (a namespace the informer has
 * not seen yet is read from storage), adds its warnings to the response and its audit annotations
 * (pod-security.kubernetes.io/enforce-policy, audit-violations, exempt, error) to the audit event.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { kubernetesVersion } from '../../../../api/gen/resources.js';
import { hasReason } from '../../../apierrors/status-error.js';
import type { Informer } from '../../../controllers/informer.js';
import type { RestStorage } from '../../../registry/interface.js';
import { addWarning, internalContext, type RequestContext } from '../../../request/context.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin } from '../../interface.js';
import type { AdmissionPluginDeps } from '../deps.js';
import { PodSecurityAdmission, type Decision, type NamespaceGetter, type PodSecurityAttributes } from './admission.js';
import { auditAnnotationPrefix } from './api.js';
import { loadPodSecurityConfig } from './config.js';
import { createPodSecurityRecorder } from './metrics.js';
import { namespacePodCheckTimeoutMs, type PodLister } from './namespace-pods.js';
import { Evaluator } from './policy/evaluator.js';
import { hasPodTemplate } from './pod-spec-extractor.js';

/** The plugin: routes each request to the namespace, pod or pod-template logic. */
export class PodSecurity implements AdmissionPlugin {
  readonly name = 'PodSecurity';

  constructor(
    private readonly core: PodSecurityAdmission,
    private readonly onAnnotationError: (err: Error) => void = () => undefined,
  ) {}

  handles(operation: AdmissionOperation): boolean {
    return operation === 'CREATE' || operation === 'UPDATE';
  }

  async validate(attrs: AdmissionAttributes, ctx: RequestContext): Promise<void> {
    const { group, resource } = attrs;
    const isPod = group === '' && resource === 'pods';
    const isNamespace = !isPod && group === '' && resource === 'namespaces';
    if (!isPod && !isNamespace && !hasPodTemplate(group, resource)) return;
    const a: PodSecurityAttributes = {
      operation: attrs.operation,
      group,
      resource,
      subresource: attrs.subresource,
      namespace: attrs.namespace,
      name: attrs.name,
      kind: attrs.kind,
      object: attrs.object,
      oldObject: attrs.oldObject,
      userName: attrs.userInfo.name,
      ...(ctx.deadline !== undefined ? { deadline: ctx.deadline } : {}),
    };
    const decision = isPod ? await this.core.validatePod(a) : isNamespace ? await this.core.validateNamespace(a) : await this.core.validatePodController(a);
    this.apply(decision, attrs, ctx);
  }

  private apply(d: Decision, attrs: AdmissionAttributes, ctx: RequestContext): void {
    if (d.warnings) for (const w of d.warnings) addWarning(ctx, w);
    if (d.annotations) {
      for (const [k, v] of Object.entries(d.annotations)) {
        const err = attrs.addAnnotation(auditAnnotationPrefix + k, v);
        if (err) this.onAnnotationError(err);
      }
    }
    if (d.error) throw d.error;
  }
}

/** A namespace from the informer, else from storage (it may be newer than the informer's copy). */
function namespaceGetter(informer: Informer, storage: RestStorage | undefined): NamespaceGetter {
  return async (name) => {
    const cached = informer.get(name);
    if (cached || !storage?.get) return cached;
    try {
      return await storage.get(internalContext({ verb: 'get', resource: 'namespaces', name }), name, { resourceVersion: '' });
    } catch (err) {
      if (hasReason(err, 'NotFound')) return undefined;
      throw err;
    }
  };
}

/** The pods of a namespace from the informer, once it has synced (waiting at most the check timeout). */
function podLister(informer: Informer): PodLister {
  return async (namespace) => {
    if (!informer.hasSynced()) {
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), namespacePodCheckTimeoutMs)));
      const r = await Promise.race([informer.synced.then(() => 'synced' as const), timedOut]);
      clearTimeout(timer);
      if (r === 'timeout') throw new Error('pod informer not synced');
    }
    const pods: KubeObject[] = [];
    for (const p of informer.list()) if (p.metadata.namespace === namespace) pods.push(p);
    return pods;
  };
}

/** Builds the plugin from the server's deps and its PodSecurityConfiguration (undefined: defaults). */
export function createPodSecurity(deps: AdmissionPluginDeps, config: unknown): PodSecurity {
  const cfg = loadPodSecurityConfig(config);
  const namespaces = deps.informers.get('', 'namespaces');
  const pods = deps.informers.get('', 'pods');
  const recorder = createPodSecurityRecorder(deps.metrics.registry, Number(kubernetesVersion.split('.')[1]));
  const core = new PodSecurityAdmission(cfg, new Evaluator(), recorder, namespaceGetter(namespaces, deps.storageOf('', 'namespaces')), podLister(pods));
  return new PodSecurity(core, (err) => deps.log.warn(`PodSecurity: failed to add audit annotation: ${err.message}`));
}

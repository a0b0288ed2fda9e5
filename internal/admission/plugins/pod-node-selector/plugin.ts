/**
 * PodNodeSelector (kube's admission plugin of that name), on pod creation: the node selector of the
 * pod's namespace (annotation scheduler.alpha.kubernetes.io/node-selector, else the configured
 * clusterDefaultNodeSelector) is merged into the pod's; a pod selector that contradicts it is
 * refused (403), as is one with a label outside the namespace's configured whitelist. The
 * configuration (kube's format, from --admission-control-config-file):
 *   podNodeSelectorPluginConfig: {clusterDefaultNodeSelector: "k=v", <namespace>: "k=v,..."}
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { newForbidden } from '../../../apierrors/factories.js';
import type { Informer } from '../../../controllers/informer.js';
import type { RequestContext } from '../../../request/context.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin } from '../../interface.js';
import type { LiveGet } from '../pod-shared/lookup.js';
import { namespaceOf, plainAdmissionError } from '../pod-shared/namespaces.js';
import { isPodRequest, podSpec, type Pod } from '../pod-shared/pod-types.js';
import { conflicts, inWhitelist, selectorToLabelsMap } from './labels.js';

/** The namespace annotation holding its node selector. */
export const namespaceNodeSelectorAnnotation = 'scheduler.alpha.kubernetes.io/node-selector';

/** Reads the plugin's configuration: the podNodeSelectorPluginConfig map, empty when absent. */
export function podNodeSelectorConfig(config: unknown): Record<string, string> {
  if (config === undefined || config === null) return {};
  if (typeof config !== 'object' || Array.isArray(config)) throw new Error('PodNodeSelector configuration must be an object');
  const m = (config as { podNodeSelectorPluginConfig?: unknown }).podNodeSelectorPluginConfig;
  if (m === undefined || m === null) return {};
  if (typeof m !== 'object' || Array.isArray(m)) throw new Error('podNodeSelectorPluginConfig must map names to node selectors');
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(m)) {
    if (typeof v !== 'string') throw new Error(`podNodeSelectorPluginConfig.${k} must be a string`);
    out[k] = v;
  }
  return out;
}

/** The PodNodeSelector plugin. */
export class PodNodeSelector implements AdmissionPlugin {
  readonly name = 'PodNodeSelector';

  constructor(
    private readonly namespaces: Informer,
    private readonly liveGet: LiveGet,
    private readonly clusterNodeSelectors: Readonly<Record<string, string>>,
  ) {}

  handles(operation: AdmissionOperation): boolean {
    return operation === 'CREATE';
  }

  async admit(attrs: AdmissionAttributes, ctx: RequestContext): Promise<void> {
    if (!isPodRequest(attrs.group, attrs.resource, attrs.subresource) || !attrs.object) return;
    const pod = attrs.object as Pod;
    const spec = podSpec(pod);
    const nsSelector = await this.namespaceSelector(attrs);
    if (conflicts(nsSelector, spec.nodeSelector ?? {})) throw conflict(pod);
    // The pod's own values win (they agree with the namespace's anyway).
    if (nsSelector.size > 0 || spec.nodeSelector) spec.nodeSelector = { ...Object.fromEntries(nsSelector), ...(spec.nodeSelector ?? {}) };
    await this.validate(attrs, ctx);
  }

  async validate(attrs: AdmissionAttributes, _ctx: RequestContext): Promise<void> {
    if (!isPodRequest(attrs.group, attrs.resource, attrs.subresource) || !attrs.object) return;
    const pod = attrs.object as Pod;
    const selector = pod.spec?.nodeSelector ?? {};
    if (conflicts(await this.namespaceSelector(attrs), selector)) throw conflict(pod);
    let whitelist: Map<string, string>;
    try {
      whitelist = selectorToLabelsMap(this.clusterNodeSelectors[attrs.namespace]);
    } catch (err) {
      throw plainAdmissionError((err as Error).message);
    }
    if (!inWhitelist(selector, whitelist)) {
      throw newForbidden({ group: '', resource: 'pods' }, pod.metadata.name ?? '', 'pod node label selector labels conflict with its namespace whitelist');
    }
  }

  private async namespaceSelector(attrs: AdmissionAttributes): Promise<Map<string, string>> {
    const ns: KubeObject = await namespaceOf(attrs, this.namespaces, this.liveGet);
    const annotation = ns.metadata.annotations?.[namespaceNodeSelectorAnnotation];
    try {
      return selectorToLabelsMap(annotation !== undefined ? annotation : this.clusterNodeSelectors.clusterDefaultNodeSelector);
    } catch (err) {
      throw plainAdmissionError((err as Error).message);
    }
  }
}

function conflict(pod: Pod): Error {
  return newForbidden({ group: '', resource: 'pods' }, pod.metadata.name ?? '', 'pod node label selector conflicts with its namespace node label selector');
}

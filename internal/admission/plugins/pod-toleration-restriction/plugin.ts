/**
 * PodTolerationRestriction (kube's admission plugin of that name). On pod creation the namespace's
 * default tolerations (annotation scheduler.alpha.kubernetes.io/defaultTolerations, else the
 * configured cluster default) are merged into the pod's; a pod that is not BestEffort also gets
 * node.kubernetes.io/memory-pressure:NoSchedule tolerated. Every pod's tolerations must then be
 * covered by the namespace whitelist (scheduler.alpha.kubernetes.io/tolerationsWhitelist, else the
 * configured cluster whitelist), or the request fails with kube's message.
 */
import type { Informer } from '../../../controllers/informer.js';
import type { RequestContext } from '../../../request/context.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionPlugin } from '../../interface.js';
import type { LiveGet } from '../pod-shared/lookup.js';
import { namespaceOf, plainAdmissionError } from '../pod-shared/namespaces.js';
import { isPodRequest, podSpec, type Pod, type Toleration } from '../pod-shared/pod-types.js';
import { mergeTolerations, parseTolerations, verifyAgainstWhitelist } from '../pod-shared/tolerations.js';
import { isBestEffort } from './qos.js';

/** The namespace annotation with tolerations merged into its pods. */
export const nsDefaultTolerations = 'scheduler.alpha.kubernetes.io/defaultTolerations';
/** The namespace annotation with the tolerations its pods may have. */
export const nsWhitelistTolerations = 'scheduler.alpha.kubernetes.io/tolerationsWhitelist';

/** The plugin's configuration (podtolerationrestriction.admission.k8s.io/v1alpha1 Configuration). */
export interface TolerationRestrictionConfig {
  readonly default: Toleration[];
  readonly whitelist: Toleration[];
}

const configVersion = 'podtolerationrestriction.admission.k8s.io/v1alpha1';

/** Reads the configuration object; throws on a wrong kind or shape. */
export function tolerationRestrictionConfig(config: unknown): TolerationRestrictionConfig {
  if (config === undefined || config === null) return { default: [], whitelist: [] };
  if (typeof config !== 'object' || Array.isArray(config)) throw new Error('PodTolerationRestriction configuration must be an object');
  const c = config as Record<string, unknown>;
  if (c.kind !== 'Configuration' || c.apiVersion !== configVersion) {
    throw new Error(`unexpected type: ${String(c.apiVersion)}, Kind=${String(c.kind)} (want ${configVersion}, Kind=Configuration)`);
  }
  return { default: parseTolerations(c.default, 'default'), whitelist: parseTolerations(c.whitelist, 'whitelist') };
}

/** The PodTolerationRestriction plugin. */
export class PodTolerationRestriction implements AdmissionPlugin {
  readonly name = 'PodTolerationRestriction';

  constructor(
    private readonly namespaces: Informer,
    private readonly liveGet: LiveGet,
    private readonly config: TolerationRestrictionConfig,
  ) {}

  handles(operation: AdmissionOperation): boolean {
    return operation === 'CREATE' || operation === 'UPDATE';
  }

  async admit(attrs: AdmissionAttributes, ctx: RequestContext): Promise<void> {
    if (!isPodRequest(attrs.group, attrs.resource, attrs.subresource) || !attrs.object) return;
    const pod = attrs.object as Pod;
    let extra: Toleration[] = [];
    if (attrs.operation === 'CREATE') extra = [...((await this.annotationTolerations(attrs, nsDefaultTolerations)) ?? this.config.default)];
    if (!isBestEffort(pod)) extra.push({ key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' });
    if (extra.length > 0) {
      const spec = podSpec(pod);
      spec.tolerations = mergeTolerations(spec.tolerations ?? [], extra);
    }
    await this.validate(attrs, ctx);
  }

  async validate(attrs: AdmissionAttributes, _ctx: RequestContext): Promise<void> {
    if (!isPodRequest(attrs.group, attrs.resource, attrs.subresource) || !attrs.object) return;
    const tolerations = (attrs.object as Pod).spec?.tolerations ?? [];
    if (tolerations.length === 0) return;
    let whitelist = await this.annotationTolerations(attrs, nsWhitelistTolerations);
    let scope = 'namespace';
    if (whitelist === undefined) {
      whitelist = this.config.whitelist;
      scope = 'cluster';
    }
    if (whitelist.length > 0 && !verifyAgainstWhitelist(tolerations, whitelist)) {
      throw plainAdmissionError(`pod tolerations (possibly merged with namespace default tolerations) conflict with its ${scope} whitelist`);
    }
  }

  /** The namespace annotation's tolerations: undefined when absent, [] when empty. */
  private async annotationTolerations(attrs: AdmissionAttributes, key: string): Promise<Toleration[] | undefined> {
    const ns = await namespaceOf(attrs, this.namespaces, this.liveGet);
    const value = ns.metadata.annotations?.[key];
    if (value === undefined) return undefined;
    if (value === '') return [];
    try {
      return parseTolerations(JSON.parse(value), key);
    } catch (err) {
      throw plainAdmissionError((err as Error).message);
    }
  }
}

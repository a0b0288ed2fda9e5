/**
 * The scale subresource (<resource>/scale): an autoscaling/v1 Scale view of a resource's replica
 * count and selector. Writes change only the replica count, through the resource's own update.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { newConflict, newInvalid, newNotFound, optimisticLockErrorMsg } from '../../apierrors/factories.js';
import type { RequestContext } from '../../request/context.js';
import { labelSelectorAsSelector, type LabelSelectorObject } from '../../selectors/label-selector-object.js';
import type { GetOptions, RestStorage, UpdatedObjectInfo, UpdateResult, ValidateObjectFunc, WriteOptions } from '../interface.js';
import type { GenericStore } from './store.js';

/** Where a resource keeps what Scale shows. */
export interface ScaleMapping {
  /** Reads spec.replicas (kube defaults it to 1 when absent). */
  specReplicas(obj: KubeObject): number;
  setSpecReplicas(obj: KubeObject, replicas: number): void;
  statusReplicas(obj: KubeObject): number;
  /** The label selector Scale reports, as an object (rendered to kube's string form). */
  selector(obj: KubeObject): LabelSelectorObject | undefined;
  /** When present, the selector already in string form (custom resources' labelSelectorPath); used instead of selector. */
  selectorString?(obj: KubeObject): string;
}

/** The usual mapping: spec.replicas, status.replicas, spec.selector. */
export const specReplicasMapping: ScaleMapping = {
  specReplicas: (o) => numberAt(o, 'spec', 'replicas') ?? 1,
  setSpecReplicas: (o, n) => {
    const spec = (typeof o.spec === 'object' && o.spec !== null ? o.spec : (o.spec = {})) as Record<string, unknown>;
    spec.replicas = n;
  },
  statusReplicas: (o) => numberAt(o, 'status', 'replicas') ?? 0,
  selector: (o) => ((o.spec as Record<string, unknown> | undefined)?.selector as LabelSelectorObject | undefined) ?? undefined,
};

function numberAt(o: KubeObject, a: string, b: string): number | undefined {
  const outer = o[a] as Record<string, unknown> | undefined;
  const v = outer?.[b];
  return typeof v === 'number' ? v : undefined;
}

/** Builds the autoscaling/v1 Scale of obj. */
export function toScale(obj: KubeObject, mapping: ScaleMapping): KubeObject {
  let selector = '';
  if (mapping.selectorString) {
    selector = mapping.selectorString(obj);
  } else {
    try {
      selector = labelSelectorAsSelector(mapping.selector(obj) ?? null).toString();
    } catch {
      selector = '';
    }
  }
  const m = obj.metadata;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: m.name,
      namespace: m.namespace,
      uid: m.uid,
      resourceVersion: m.resourceVersion,
      creationTimestamp: m.creationTimestamp,
    },
    spec: { replicas: mapping.specReplicas(obj) },
    status: { replicas: mapping.statusReplicas(obj), ...(selector ? { selector } : {}) },
  };
}

/** RestStorage for <resource>/scale over the resource's generic store. */
export class ScaleStore implements RestStorage {
  constructor(
    private readonly parent: GenericStore,
    private readonly mapping: ScaleMapping = specReplicasMapping,
  ) {}

  async get(ctx: RequestContext, name: string, opts: GetOptions): Promise<KubeObject> {
    return toScale(await this.parent.get(ctx, name, opts), this.mapping);
  }

  async update(
    ctx: RequestContext,
    name: string,
    info: UpdatedObjectInfo,
    opts: WriteOptions & { forceAllowCreate?: boolean },
    validate?: ValidateObjectFunc,
  ): Promise<UpdateResult> {
    const result = await this.parent.updateWith(
      ctx,
      name,
      {
        updatedObject: async (c, old) => {
          if (!old) throw newNotFound(this.parent.gr, name);
          const scale = await info.updatedObject(c, toScale(old, this.mapping));
          const replicas = (scale.spec as Record<string, unknown> | undefined)?.replicas;
          const rv = scale.metadata?.resourceVersion;
          if (rv && rv !== old.metadata.resourceVersion) throw newConflict(this.parent.gr, name, optimisticLockErrorMsg);
          if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
            const shown = typeof replicas === 'number' ? String(replicas) : JSON.stringify(replicas ?? null);
            throw newInvalid('autoscaling', 'Scale', name, [
              {
                reason: 'FieldValueInvalid',
                field: 'spec.replicas',
                message: `Invalid value: ${shown}: must be greater than or equal to 0`,
                text: `spec.replicas: Invalid value: ${shown}: must be greater than or equal to 0`,
              },
            ]);
          }
          const obj = structuredClone(old);
          this.mapping.setSpecReplicas(obj, replicas);
          return obj;
        },
      },
      { ...opts, forceAllowCreate: false },
      validate,
      undefined,
    );
    return { object: toScale(result.object, this.mapping), created: false };
  }
}

/**
 * The configuration digest (kube's apf_controller digestConfigObjects): the
 * PriorityLevelConfigurations become the dispatcher's PriorityLevelSpecs and the FlowSchemas the
 * sorted, compiled list classification walks. A FlowSchema whose level does not exist is dangling:
 * it is left out of classification (and its status says so). The mandatory objects (the exempt
 * and catch-all levels and schemas) take part from their built-in definitions while they do not
 * exist, so that every request still has somewhere to go.
 */
import { mandatoryFlowSchemas, mandatoryPriorityLevels } from '../../controllers/bootstrap-objects/flowcontrol-defaults.js';
import type { PriorityLevelSpec } from '../interface.js';
import { byPrecedence, compileFlowSchema, type CompiledFlowSchema } from './classify.js';
import type { FlowSchemaObject, PriorityLevelObject } from './interface.js';

/** What one configuration yields. */
export interface Digest {
  readonly levels: readonly PriorityLevelSpec[];
  /** Sorted by matchingPrecedence, then name; dangling schemas left out. */
  readonly schemas: readonly CompiledFlowSchema[];
  /** Every existing FlowSchema's name -> the level it names and whether that level exists. */
  readonly references: ReadonlyMap<string, { readonly levelName: string; readonly dangling: boolean }>;
}

/** A PriorityLevelConfiguration as the dispatcher takes it (v1 defaults for absent fields). */
export function levelSpec(pl: PriorityLevelObject): PriorityLevelSpec {
  const name = pl.metadata.name ?? '';
  const uid = pl.metadata.uid ?? '';
  const spec = pl.spec;
  if (spec?.type === 'Exempt') {
    return { name, uid, exempt: true, nominalConcurrencyShares: spec.exempt?.nominalConcurrencyShares ?? 0, lendablePercent: spec.exempt?.lendablePercent ?? 0 };
  }
  const limited = spec?.limited ?? {};
  const response = limited.limitResponse;
  const queuing = response?.type === 'Queue' ? response.queuing : undefined;
  return {
    name,
    uid,
    exempt: false,
    nominalConcurrencyShares: limited.nominalConcurrencyShares ?? 30,
    lendablePercent: limited.lendablePercent ?? 0,
    ...(limited.borrowingLimitPercent !== undefined && limited.borrowingLimitPercent !== null ? { borrowingLimitPercent: limited.borrowingLimitPercent } : {}),
    ...(response?.type === 'Queue'
      ? { queuing: { queues: queuing?.queues ?? 64, handSize: queuing?.handSize ?? 8, queueLengthLimit: queuing?.queueLengthLimit ?? 50 } }
      : {}),
  };
}

/** Digests one configuration. Never throws on odd objects: what it cannot read takes the v1 defaults. */
export function digest(flowSchemas: Iterable<FlowSchemaObject>, priorityLevels: Iterable<PriorityLevelObject>): Digest {
  const levels = new Map<string, PriorityLevelSpec>();
  for (const pl of priorityLevels) levels.set(pl.metadata.name ?? '', levelSpec(pl));
  for (const m of mandatoryPriorityLevels) {
    const name = m.metadata.name ?? '';
    if (!levels.has(name)) levels.set(name, levelSpec(m as PriorityLevelObject));
  }
  const references = new Map<string, { levelName: string; dangling: boolean }>();
  const schemas: CompiledFlowSchema[] = [];
  const seen = new Set<string>();
  for (const fs of flowSchemas) {
    const name = fs.metadata.name ?? '';
    const levelName = fs.spec?.priorityLevelConfiguration?.name ?? '';
    const level = levels.get(levelName);
    seen.add(name);
    references.set(name, { levelName, dangling: level === undefined });
    if (level) schemas.push(compileFlowSchema(fs, level));
  }
  for (const m of mandatoryFlowSchemas) {
    const name = m.metadata.name ?? '';
    if (seen.has(name)) continue;
    const level = levels.get((m as FlowSchemaObject).spec?.priorityLevelConfiguration.name ?? '') as PriorityLevelSpec;
    schemas.push(compileFlowSchema(m as FlowSchemaObject, level));
  }
  schemas.sort(byPrecedence);
  return { levels: [...levels.values()], schemas, references };
}

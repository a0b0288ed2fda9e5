/**
 * How simulated nodes run a pod: how long before it is Running, how long its containers run and
 * with which exit code. From a rule file (YAML or JSON: the first rule whose match fits the pod
 * wins, else `default`) and, over it, the pod's own annotations. A pod with no run duration runs
 * until deleted. The format is in the README ("Simulated nodes").
 */
import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { parseGoDuration } from '../../server/options/duration.js';

/** Pod annotations that override the rules for one pod. */
export const startDelayAnnotation = 'simulated.capstan.io/start-delay';
export const runDurationAnnotation = 'simulated.capstan.io/run-duration';
export const exitCodeAnnotation = 'simulated.capstan.io/exit-code';

/** What happens to one pod. */
export interface PodBehaviour {
  /** ms from binding to Running. */
  readonly startDelayMs: number;
  /** ms the containers run before they exit (undefined: until the pod is deleted). */
  readonly runDurationMs?: number;
  readonly exitCode: number;
}

/** Which pods a rule applies to (every given field must fit). */
export interface RuleMatch {
  readonly namespace?: string;
  readonly namePrefix?: string;
  readonly labels?: Readonly<Record<string, string>>;
}

/** One rule of the file. */
export interface SimulationRule {
  readonly match?: RuleMatch;
  readonly startDelay?: string;
  readonly runDuration?: string;
  readonly exitCode?: number;
}

/** The rule file. */
export interface SimulationRules {
  readonly rules?: readonly SimulationRule[];
  readonly default?: Omit<SimulationRule, 'match'>;
}

const ruleFields = new Set(['match', 'startDelay', 'runDuration', 'exitCode']);
const matchFields = new Set(['namespace', 'namePrefix', 'labels']);

function checkRule(r: unknown, where: string, allowMatch: boolean): SimulationRule {
  if (!r || typeof r !== 'object' || Array.isArray(r)) throw new Error(`${where}: must be an object`);
  for (const k of Object.keys(r)) if (!ruleFields.has(k) || (k === 'match' && !allowMatch)) throw new Error(`${where}: unknown field "${k}"`);
  const rule = r as SimulationRule;
  for (const f of ['startDelay', 'runDuration'] as const) {
    if (rule[f] !== undefined) {
      try {
        parseGoDuration(String(rule[f]));
      } catch (err) {
        throw new Error(`${where}.${f}: ${(err as Error).message}`);
      }
    }
  }
  if (rule.exitCode !== undefined && (!Number.isInteger(rule.exitCode) || rule.exitCode < 0 || rule.exitCode > 255)) throw new Error(`${where}.exitCode: must be an integer from 0 to 255`);
  if (rule.match !== undefined) {
    if (typeof rule.match !== 'object' || rule.match === null) throw new Error(`${where}.match: must be an object`);
    for (const k of Object.keys(rule.match)) if (!matchFields.has(k)) throw new Error(`${where}.match: unknown field "${k}"`);
  }
  return rule;
}

/** Parses and checks a rule file's text (YAML or JSON); throws naming the bad field. */
export function parseSimulationRules(text: string): SimulationRules {
  const doc = (parseYaml(text) ?? {}) as Record<string, unknown>;
  for (const k of Object.keys(doc)) if (k !== 'rules' && k !== 'default') throw new Error(`simulation rules: unknown field "${k}"`);
  if (doc.rules !== undefined && !Array.isArray(doc.rules)) throw new Error('simulation rules: rules must be a list');
  const rules = ((doc.rules ?? []) as unknown[]).map((r, i) => checkRule(r, `rules[${i}]`, true));
  return { rules, ...(doc.default !== undefined ? { default: checkRule(doc.default, 'default', false) } : {}) };
}

/** Reads a rule file. */
export async function loadSimulationRules(path: string): Promise<SimulationRules> {
  return parseSimulationRules(await readFile(path, 'utf8'));
}

function fits(m: RuleMatch | undefined, pod: Record<string, any>): boolean {
  if (!m) return true;
  if (m.namespace !== undefined && m.namespace !== pod.metadata?.namespace) return false;
  if (m.namePrefix !== undefined && !String(pod.metadata?.name ?? '').startsWith(m.namePrefix)) return false;
  for (const [k, v] of Object.entries(m.labels ?? {})) if (pod.metadata?.labels?.[k] !== v) return false;
  return true;
}

/** The behaviour of pod: its annotations over the first fitting rule over the default. */
export function behaviourOf(rules: SimulationRules, pod: Record<string, any>): PodBehaviour {
  const rule = { ...rules.default, ...(rules.rules ?? []).find((r) => fits(r.match, pod)) };
  const ann = (pod.metadata?.annotations ?? {}) as Record<string, string>;
  const duration = (text: string | undefined) => {
    if (text === undefined) return undefined;
    try {
      return Math.max(0, parseGoDuration(text));
    } catch {
      return undefined;
    }
  };
  const startDelayMs = duration(ann[startDelayAnnotation]) ?? duration(rule.startDelay) ?? 0;
  const runDurationMs = duration(ann[runDurationAnnotation]) ?? duration(rule.runDuration);
  const annotated = Number(ann[exitCodeAnnotation]);
  const exitCode = ann[exitCodeAnnotation] !== undefined && Number.isInteger(annotated) ? annotated : (rule.exitCode ?? 0);
  return { startDelayMs, exitCode, ...(runDurationMs !== undefined ? { runDurationMs } : {}) };
}

/**
 * The evaluator (kube's policy checkRegistry): for every policy version v1.0 to the newest any
 * check defines, the check functions in force at each level, baseline checks first and each group
 * ordered by check ID (so reasons always read in the same order). Restricted runs every baseline
 * check that no restricted check in force overrides. Versions newer than the newest (and latest)
 * evaluate as the newest.
 */
import type { LevelVersion } from '../api.js';
import type { PodMetadata, PodSpec } from '../pod-types.js';
import type { Check, CheckPodFn, CheckResult, VersionedCheck } from './check.js';
import { defaultChecks } from './checks/index.js';
import { compareStrings } from './helpers.js';

/** Evaluates pods against a level and version. */
export class Evaluator {
  private readonly baseline: CheckPodFn[][] = [];
  private readonly restricted: CheckPodFn[][] = [];
  /** The newest minor version any check defines. */
  readonly maxMinor: number;

  /** Builds the per-version tables; throws on checks kube would refuse (duplicate IDs, unordered versions). */
  constructor(checks: readonly Check[] = defaultChecks) {
    const ids = new Set<string>();
    let max = 0;
    for (const c of checks) {
      if (ids.has(c.id)) throw new Error(`multiple checks registered for ID ${c.id}`);
      ids.add(c.id);
      if (c.versions.length === 0) throw new Error(`check ${c.id}: empty`);
      let prev = -1;
      for (const v of c.versions) {
        if (v.minimumMinor <= prev) throw new Error(`check ${c.id}: versions must be strictly increasing`);
        prev = v.minimumMinor;
      }
      max = Math.max(max, prev);
    }
    this.maxMinor = max;
    const byId = (level: string) => checks.filter((c) => c.level === level).sort((a, b) => compareStrings(a.id, b.id));
    const baselineChecks = byId('baseline');
    const restrictedChecks = byId('restricted');
    for (let minor = 0; minor <= max; minor++) {
      const inForce = (c: Check): VersionedCheck | undefined => c.versions.filter((v) => v.minimumMinor <= minor).at(-1);
      const restrictedNow = restrictedChecks.map((c) => inForce(c)).filter((v): v is VersionedCheck => v !== undefined);
      const overridden = new Set(restrictedNow.flatMap((v) => v.overrides ?? []));
      const baselineNow = baselineChecks.map((c) => ({ id: c.id, v: inForce(c) })).filter((x) => x.v !== undefined);
      this.baseline[minor] = baselineNow.map((x) => (x.v as VersionedCheck).checkPod);
      this.restricted[minor] = [...baselineNow.filter((x) => !overridden.has(x.id)).map((x) => (x.v as VersionedCheck).checkPod), ...restrictedNow.map((v) => v.checkPod)];
    }
  }

  /** The results of every check of lv for the pod, in order; none for privileged. */
  evaluatePod(lv: LevelVersion, meta: PodMetadata, spec: PodSpec): CheckResult[] {
    if (lv.level === 'privileged') return [];
    const minor = Math.min(lv.version, this.maxMinor);
    const fns = (lv.level === 'baseline' ? this.baseline : this.restricted)[minor] ?? [];
    return fns.map((fn) => fn(meta, spec));
  }
}

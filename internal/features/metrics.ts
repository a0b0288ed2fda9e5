/**
 * kubernetes_feature_enabled: one series per known gate (AllAlpha and AllBeta included), labelled
 * with its name and stage ("ALPHA", "BETA", "" for GA, "DEPRECATED"), 1 when on and 0 when off,
 * as component-base's featuregate AddMetrics records them at startup.
 */
import { Gauge, type Registry } from 'prom-client';
import type { FeatureGateSet } from './gates.js';

/** Registers kubernetes_feature_enabled on registry and records every gate of gates once (they do not change while the server runs). */
export function recordFeatureGateMetrics(registry: Registry, gates: FeatureGateSet): void {
  const gauge = new Gauge({
    name: 'kubernetes_feature_enabled',
    help: 'This metric records the data about the stage and enablement of a k8s feature.',
    labelNames: ['name', 'stage'],
    registers: [registry],
  });
  for (const { name, stage, enabled } of gates.all()) gauge.set({ name, stage }, enabled ? 1 : 0);
}

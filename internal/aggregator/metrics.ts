/**
 * kube-aggregator's availability metrics: aggregator_unavailable_apiservice (1 while an
 * APIService is not Available, 0 once it is, by name) and aggregator_unavailable_apiservice_total
 * (each change to unavailable, by name and the condition's reason).
 */
import { Counter, Gauge, type Registry } from 'prom-client';

/** What the availability controller records. */
export interface AvailabilityMetrics {
  /** Sets the gauge of name from its current availability. */
  setAvailable(name: string, available: boolean): void;
  /** Counts a change of name to unavailable, with the condition's reason. */
  becameUnavailable(name: string, reason: string): void;
  /** Drops the gauge of a deleted APIService. */
  forget(name: string): void;
}

/** Registers the metrics on registry (once per server). */
export function createAvailabilityMetrics(registry: Registry): AvailabilityMetrics {
  const opts = { registers: [registry] };
  const gauge = new Gauge({ name: 'aggregator_unavailable_apiservice', help: 'Gauge of APIServices which are marked as unavailable broken down by APIService name.', labelNames: ['name'], ...opts });
  const counter = new Counter({ name: 'aggregator_unavailable_apiservice_total', help: 'Counter of APIServices which are marked as unavailable broken down by APIService name and reason.', labelNames: ['name', 'reason'], ...opts });
  return {
    setAvailable: (name, available) => gauge.set({ name }, available ? 0 : 1),
    becameUnavailable: (name, reason) => counter.inc({ name, reason: reason || 'UnknownReason' }),
    forget: (name) => gauge.remove({ name }),
  };
}

/**
 * kube's admission metrics (k8s.io/apiserver/pkg/admission/metrics, 1.33): the latency of each
 * admission step (admit, validate) as a histogram and a summary, and of each admission
 * controller (plugin), by operation and whether it rejected the request.
 */
import type { Registry } from 'prom-client';
import type { AdmissionObserver } from '../admission/interface.js';
import { HistogramVec, SummaryVec, type HistogramChild, type SummaryChild } from './vectors.js';

/** kube's admission latency buckets. */
export const admissionLatencyBuckets: readonly number[] = [0.005, 0.025, 0.1, 0.5, 1.0, 2.5];

/** The admission metric families and the chain's observer recording into them. */
export interface AdmissionMetrics {
  readonly step: HistogramVec;
  readonly stepSummary: SummaryVec;
  readonly controller: HistogramVec;
  readonly observer: AdmissionObserver;
}

/** Creates the admission metric families on registry. */
export function createAdmissionMetrics(registry: Registry): AdmissionMetrics {
  const registers = [registry];
  const step = new HistogramVec({
    name: 'apiserver_admission_step_admission_duration_seconds',
    help: 'Admission sub-step latency histogram in seconds, broken out for each operation and API resource and step type (validate or admit).',
    labelNames: ['type', 'operation', 'rejected'],
    buckets: admissionLatencyBuckets,
    registers,
  });
  const stepSummary = new SummaryVec({
    name: 'apiserver_admission_step_admission_duration_seconds_summary',
    help: 'Admission sub-step latency summary in seconds, broken out for each operation and API resource and step type (validate or admit).',
    labelNames: ['type', 'operation', 'rejected'],
    registers,
  });
  const controller = new HistogramVec({
    name: 'apiserver_admission_controller_admission_duration_seconds',
    help: 'Admission controller latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
    labelNames: ['name', 'type', 'operation', 'rejected'],
    buckets: admissionLatencyBuckets,
    registers,
  });
  const steps = new Map<string, { h: HistogramChild; s: SummaryChild }>();
  const controllers = new Map<string, HistogramChild>();
  const observer: AdmissionObserver = {
    step(type, operation, rejected, seconds) {
      const key = `${type}|${operation}|${rejected}`;
      let c = steps.get(key);
      if (!c) {
        c = { h: step.labels(type, operation, String(rejected)), s: stepSummary.labels(type, operation, String(rejected)) };
        steps.set(key, c);
      }
      c.h.observe(seconds);
      c.s.observe(seconds);
    },
    controller(name, type, operation, rejected, seconds) {
      const key = `${name}|${type}|${operation}|${rejected}`;
      let c = controllers.get(key);
      if (!c) {
        c = controller.labels(name, type, operation, String(rejected));
        controllers.set(key, c);
      }
      c.observe(seconds);
    },
  };
  return { step, stepSummary, controller, observer };
}

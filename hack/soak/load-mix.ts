/**
 * The soak's load: paced loops of kubectl-like reads (GET, LIST quorum and at resourceVersion=0,
 * Table output, the real kubectl now and then), ConfigMap writers keeping the ledger, controllers
 * patching Pod status (strategic merge) and Deployment status (merge patch), and events.k8s.io/v1
 * events created and then updated as a series. Each loop runs one request at a time at its rate
 * until stop() and never throws.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { kubectl } from '../../test/support/kubectl.js';
import { kubeconfig } from '../run-local.js';
import type { SoakClient } from './client.js';
import type { ApiServer } from './control-plane.js';
import { ConfigMapWriter, soakNamespace } from './crud-writer.js';
import type { Ledger } from './ledger.js';
import type { Recorder } from './recorder.js';

const ns = `/api/v1/namespaces/${soakNamespace}`;
const deploymentsPath = `/apis/apps/v1/namespaces/${soakNamespace}/deployments`;
const eventsPath = `/apis/events.k8s.io/v1/namespaces/${soakNamespace}/events`;
const tableAccept = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';

/** The fixed objects the controllers work on. */
export const podCount = 12;
export const deploymentCount = 4;

/** A MicroTime (RFC 3339 with microseconds). */
function microTime(): string {
  return new Date().toISOString().replace('Z', '000Z');
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Creates the namespace, waits for its default service account, and creates the pods and deployments; each create is in the ledger. */
export async function seed(client: SoakClient, ledger: Ledger): Promise<void> {
  const must = async (method: string, path: string, body: unknown, ok: number[]): Promise<void> => {
    const res = await client.send('create', method, path, { body });
    if (!ok.includes(res.status)) throw new Error(`seeding: ${method} ${path} answered ${res.status} ${res.body.slice(0, 300)}`);
  };
  await must('POST', '/api/v1/namespaces', { metadata: { name: soakNamespace } }, [201, 409]);
  for (let i = 0; (await client.raw('GET', `${ns}/serviceaccounts/default`)).status !== 200; i++) {
    if (i > 100) throw new Error('seeding: the default service account of the soak namespace never appeared');
    await sleep(200);
  }
  const container = { name: 'c', image: 'capstan.local/busybox:1' };
  for (let i = 0; i < podCount; i++) {
    await must('POST', `${ns}/pods`, { metadata: { name: `pod-${i}` }, spec: { containers: [container] } }, [201]);
    ledger.present(`${ns}/pods/pod-${i}`, `pod-${i}`);
  }
  for (let i = 0; i < deploymentCount; i++) {
    const labels = { app: `deploy-${i}` };
    await must('POST', deploymentsPath, { metadata: { name: `deploy-${i}` }, spec: { replicas: 2, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [container] } } } }, [201]);
    ledger.present(`${deploymentsPath}/deploy-${i}`, `deploy-${i}`);
  }
}

/** The running load. */
export class LoadMix {
  private stopped = false;
  private readonly loops: Promise<void>[] = [];
  private readonly writers: ConfigMapWriter[];
  private eventSerial = 0;
  private readonly recentEvents: Array<{ name: string; count: number }> = [];
  private patchSerial = 0;

  constructor(
    private readonly client: SoakClient,
    private readonly servers: readonly ApiServer[],
    private readonly ledger: Ledger,
    private readonly recorder: Recorder,
    private readonly workDir: string,
  ) {
    this.writers = Array.from({ length: 4 }, (_, i) => new ConfigMapWriter(`cm-w${i}`, client, ledger, recorder));
  }

  /** Starts every loop. Rates are per second. */
  start(): void {
    for (const w of this.writers) this.every(2.5, () => w.step());
    this.every(12, () => this.getConfigMap());
    this.every(3, () => this.client.send('get', 'GET', `${ns}/pods/pod-${Math.floor(Math.random() * podCount)}`));
    this.every(3, () => this.client.send('list', 'GET', `${ns}/configmaps`));
    this.every(3, () => this.client.send('list-rv0', 'GET', `${ns}/configmaps?resourceVersion=0`));
    this.every(2, () => this.client.send('table', 'GET', `${ns}/pods`, { accept: tableAccept }));
    this.every(8, () => this.patchPodStatus());
    this.every(2, () => this.patchDeploymentStatus());
    this.every(2, () => this.createEvent());
    this.every(2, () => this.updateEventSeries());
    this.every(1 / 20, () => this.runKubectl());
  }

  /** Stops every loop and waits for the requests in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.loops);
  }

  private every(perSecond: number, op: () => Promise<unknown>): void {
    const period = 1000 / perSecond;
    this.loops.push(
      (async () => {
        await sleep(Math.random() * Math.min(period, 2000));
        while (!this.stopped) {
          const began = Date.now();
          await op().catch((err: unknown) => this.recorder.note(`load loop failed: ${(err as Error).message}`));
          await sleep(Math.max(0, period - (Date.now() - began)));
        }
      })(),
    );
  }

  private async getConfigMap(): Promise<void> {
    const w = this.writers[Math.floor(Math.random() * this.writers.length)] as ConfigMapWriter;
    const names = [...w.live.keys()];
    const name = names[Math.floor(Math.random() * names.length)] ?? 'absent';
    await this.client.send('get', 'GET', `${ns}/configmaps/${name}`);
  }

  private async patchPodStatus(): Promise<void> {
    const name = `pod-${this.patchSerial++ % podCount}`;
    const patch = { status: { conditions: [{ type: 'soak.example.com/Probed', status: this.patchSerial % 2 ? 'True' : 'False', lastProbeTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'), reason: 'Soak', message: `probe ${this.patchSerial}` }] } };
    await this.client.send('patch-status', 'PATCH', `${ns}/pods/${name}/status`, { body: patch, contentType: 'application/strategic-merge-patch+json' });
  }

  private async patchDeploymentStatus(): Promise<void> {
    const i = this.patchSerial++ % deploymentCount;
    const ready = this.patchSerial % 3;
    const patch = { status: { observedGeneration: 1, replicas: 2, updatedReplicas: 2, readyReplicas: ready, availableReplicas: ready, unavailableReplicas: 2 - ready } };
    await this.client.send('patch-status', 'PATCH', `${deploymentsPath}/deploy-${i}/status`, { body: patch, contentType: 'application/merge-patch+json' });
  }

  private async createEvent(): Promise<void> {
    const name = `ev-${this.eventSerial++}`;
    const regarding = { apiVersion: 'v1', kind: 'Pod', namespace: soakNamespace, name: `pod-${this.eventSerial % podCount}` };
    const body = { apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name }, eventTime: microTime(), reportingController: 'soak.example.com/controller', reportingInstance: 'soak-0', action: 'Probe', reason: 'Soaked', type: 'Normal', regarding, note: `soak event ${name}` };
    const res = await this.client.send('event-create', 'POST', eventsPath, { body });
    if (res.status === 201) {
      this.ledger.present(`${eventsPath}/${name}`, '1');
      this.recentEvents.push({ name, count: 1 });
      if (this.recentEvents.length > 20) this.recentEvents.shift();
    }
  }

  private async updateEventSeries(): Promise<void> {
    const ev = this.recentEvents[Math.floor(Math.random() * this.recentEvents.length)];
    if (!ev) return;
    const count = ev.count + 1;
    const path = `${eventsPath}/${ev.name}`;
    const res = await this.client.send('event-series', 'PATCH', path, { body: { series: { count, lastObservedTime: microTime() } }, contentType: 'application/merge-patch+json' });
    if (res.status === 200) {
      ev.count = count;
      this.ledger.present(path, String(count));
    } else if (res.status === 0 || res.status >= 500) this.ledger.unknown(path);
  }

  private async runKubectl(): Promise<void> {
    const server = this.servers[this.client.pick()];
    if (!server) return;
    const kc = join(this.workDir, `kubeconfig-${server.name}`);
    await writeFile(kc, kubeconfig(`https://127.0.0.1:${server.port}`, server.ca, 'soak', { token: this.client.token }), { mode: 0o600 });
    const args = this.patchSerial % 2 ? ['get', 'pods', '-n', soakNamespace, '-o', 'wide'] : ['get', 'configmaps,deployments', '-n', soakNamespace];
    const began = Date.now();
    const out = await kubectl(kc, args, { timeoutMs: 60_000 });
    const ok = out.code === 0;
    this.recorder.request('kubectl', 'kubectl', ok ? 200 : 0, began);
    if (!ok) this.recorder.note(`kubectl ${args.join(' ')} on ${server.name} exited ${out.code}: ${out.stderr.slice(0, 200)}`);
  }
}

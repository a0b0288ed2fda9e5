/**
 * One ConfigMap writer of the soak's load: creates, updates (with its own resourceVersion as the
 * precondition) and deletes ConfigMaps only it writes, so the ledger knows what each acknowledged
 * write must have left. A write that gets no answer or a 5xx leaves its object unknown until a
 * read settles it; a 404 on deleting an object the ledger holds as present is a lost write.
 */
import type { SoakClient } from './client.js';
import type { Ledger } from './ledger.js';
import type { Recorder } from './recorder.js';

/** The namespace every soak object lives in. */
export const soakNamespace = 'soak';

const configmaps = `/api/v1/namespaces/${soakNamespace}/configmaps`;

/** A writer owning the ConfigMaps named <prefix>-<n>. */
export class ConfigMapWriter {
  /** Its objects that exist, by name, with the resourceVersion it last saw. */
  readonly live = new Map<string, string>();
  private serial = 0;
  private value = 0;

  constructor(
    private readonly prefix: string,
    private readonly client: SoakClient,
    private readonly ledger: Ledger,
    private readonly recorder: Recorder,
  ) {}

  /** One write: a create while it owns few objects, else a create, update or delete at random. */
  async step(): Promise<void> {
    const r = Math.random();
    const names = [...this.live.keys()];
    const name = names[Math.floor(Math.random() * names.length)];
    if (names.length < 8 || r < 0.3 || name === undefined) await this.create(`${this.prefix}-${this.serial++}`);
    else if (r < 0.75) await this.update(name);
    else await this.remove(name);
  }

  private async create(name: string): Promise<void> {
    const v = String(this.value++);
    const path = `${configmaps}/${name}`;
    const res = await this.client.send('create', 'POST', configmaps, { body: { metadata: { name }, data: { v } } });
    if (res.status === 201) {
      this.ledger.present(path, v);
      this.live.set(name, res.json().metadata.resourceVersion);
    } else await this.afterFailure(name, res.status);
  }

  private async update(name: string): Promise<void> {
    const v = String(this.value++);
    const path = `${configmaps}/${name}`;
    const res = await this.client.send('update', 'PUT', path, { body: { metadata: { name, resourceVersion: this.live.get(name) }, data: { v } } });
    if (res.status === 200) {
      this.ledger.present(path, v);
      this.live.set(name, res.json().metadata.resourceVersion);
    } else await this.afterFailure(name, res.status);
  }

  private async remove(name: string): Promise<void> {
    const path = `${configmaps}/${name}`;
    const before = this.ledger.entries.get(path);
    const res = await this.client.send('delete', 'DELETE', path);
    if (res.status === 200) {
      this.ledger.deleted(path);
      this.live.delete(name);
      return;
    }
    if (res.status === 404 && before?.state === 'present') this.recorder.defect(`DELETE ${path} answered 404 but its last acknowledged write (value ${before.value}) left it present: an acknowledged write was lost`);
    await this.afterFailure(name, res.status);
  }

  /** After a write that was not acknowledged: an unanswered one leaves the object unknown; then a read settles it. */
  private async afterFailure(name: string, status: number): Promise<void> {
    const path = `${configmaps}/${name}`;
    if (status === 0 || status >= 500) this.ledger.unknown(path);
    // A request cut off by a restart may still be committed by the draining server: read after it.
    if (status === 0) await new Promise((r) => setTimeout(r, 2000));
    for (let i = 0; i < 120; i++) {
      const res = await this.client.send('get', 'GET', path);
      if (res.status === 200) {
        const o = res.json();
        this.live.set(name, o.metadata.resourceVersion);
        if (this.ledger.entries.get(path)?.state === 'unknown') this.ledger.settled(path, { state: 'present', value: o.data?.v ?? '' });
        return;
      }
      if (res.status === 404) {
        this.live.delete(name);
        if (this.ledger.entries.get(path)?.state === 'unknown') this.ledger.settled(path, { state: 'deleted' });
        return;
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

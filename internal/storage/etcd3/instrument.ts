/**
 * The hook the etcd3 store calls around each etcd RPC (its two choke points: Range and Txn), for
 * observers such as tracing and storage metrics. Absent, the store pays one undefined check a call.
 */

/** The etcd KV RPCs the store makes. */
export type EtcdOperation = 'Range' | 'Txn';

/** Observes etcd calls. start and the function it returns must not throw and should be cheap. */
export interface EtcdInstrument {
  /** Called as a call to etcd starts (key with the --etcd-prefix); call the result once it settles, with the error if it failed. */
  start(operation: EtcdOperation, key: string): (err?: unknown) => void;
}

/** One instrument observing with each of several (undefined entries skipped), or undefined when there is none. */
export function composeEtcdInstruments(...instruments: ReadonlyArray<EtcdInstrument | undefined>): EtcdInstrument | undefined {
  const present = instruments.filter((i): i is EtcdInstrument => i !== undefined);
  if (present.length <= 1) return present[0];
  return {
    start(operation, key) {
      const ends = present.map((i) => i.start(operation, key));
      return (err) => {
        for (const end of ends) end(err);
      };
    },
  };
}

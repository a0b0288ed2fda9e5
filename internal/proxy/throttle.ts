/**
 * --max-connection-bytes-per-sec's throttle (kube's flowrate limit on proxied connections): a
 * pass-through stream that lets at most bytesPerSec bytes through per second, on average from its
 * first byte, in slices of a tenth of a second's worth, so a burst never goes far ahead of the rate.
 * Backpressure flows through it: while it waits, it takes nothing more from its source.
 */
import { Transform, type TransformCallback } from 'node:stream';

/** A stream that passes its bytes on no faster than bytesPerSec (> 0). */
export function throttle(bytesPerSec: number): Transform {
  const slice = Math.max(1, Math.floor(bytesPerSec / 10));
  let started = 0;
  let passed = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      if (started === 0) started = performance.now();
      let offset = 0;
      const next = (): void => {
        if (offset >= chunk.length) return done();
        const piece = chunk.subarray(offset, offset + slice);
        // When the bytes so far plus this piece are due at the rate, measured from the start.
        const dueMs = ((passed + piece.length) / bytesPerSec) * 1000 - (performance.now() - started);
        const send = (): void => {
          passed += piece.length;
          offset += piece.length;
          this.push(piece);
          next();
        };
        if (dueMs > 1) setTimeout(send, dueMs);
        else send();
      };
      next();
    },
  });
}

/**
 * Micro-benchmark of the kube Protobuf storage codec: encodes and decodes the sample objects of
 * proto/sample-objects.ts (1 KiB ConfigMap, full Pod, Deployment, Node) with the compiled codec
 * and with the reference walk, in alternating rounds, and prints µs per encode and per decode
 * (the median round). Run: node dist/hack/proto-bench.js [--rounds 9] [--ms 200].
 */
import { decodeObject, encodeObject } from '../proto/codec.js';
import { referenceDecodeObject, referenceEncodeObject } from '../proto/reference.js';
import { sampleObjects } from '../proto/sample-objects.js';
import type { JsonObject } from '../proto/types.js';

interface Variant {
  readonly name: string;
  readonly encode: (obj: JsonObject) => Uint8Array;
  readonly decode: (bytes: Uint8Array) => JsonObject;
}

const variants: readonly Variant[] = [
  { name: 'reference', encode: referenceEncodeObject, decode: (b) => referenceDecodeObject(b) },
  { name: 'compiled', encode: encodeObject, decode: (b) => decodeObject(b) },
];

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

/** CPU µs (this process, user + system) per call of fn, run for about ms of CPU time; CPU time, not wall time, since the machine is shared. */
function timeIt(fn: () => unknown, ms: number): number {
  let n = 0;
  const start = process.cpuUsage();
  let used = 0;
  while (used < ms * 1000) {
    for (let i = 0; i < 50; i++) fn();
    n += 50;
    const d = process.cpuUsage(start);
    used = d.user + d.system;
  }
  return used / n;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const rounds = arg('rounds', 9);
const ms = arg('ms', 200);
const rows: string[] = [];
for (const [name, make] of Object.entries(sampleObjects)) {
  const obj = make();
  const bytes = Buffer.from(referenceEncodeObject(obj));
  for (const v of variants) timeIt(() => v.decode(v.encode(obj)), ms); // warm up
  const results = new Map<string, { enc: number[]; dec: number[] }>(variants.map((v) => [v.name, { enc: [], dec: [] }]));
  for (let r = 0; r < rounds; r++) {
    for (const v of r % 2 === 0 ? variants : [...variants].reverse()) {
      const res = results.get(v.name)!;
      res.enc.push(timeIt(() => v.encode(obj), ms));
      res.dec.push(timeIt(() => v.decode(bytes), ms));
    }
  }
  for (const v of variants) {
    const res = results.get(v.name)!;
    rows.push(`${name.padEnd(11)} ${String(bytes.length).padStart(5)} B  ${v.name.padEnd(10)} encode ${median(res.enc).toFixed(2).padStart(7)} µs  decode ${median(res.dec).toFixed(2).padStart(7)} µs`);
  }
}
console.log(rows.join('\n'));

/**
 * Metadata generators for the body fuzzer: names, generateNames, labels and annotations that are
 * valid or hostile (uppercase, dots, too long, empty, unicode with lone surrogates, RTL marks,
 * emoji and NUL bytes, huge maps, annotations just over kube's 256 KiB), each with the reference
 * verdict of whether kube-apiserver accepts it.
 */
import fc from 'fast-check';
import { areValidAnnotations, areValidLabels, isDnsSubdomain, isValidGenerateName } from './fuzz-bodies-resources.js';

/** Metadata fields with the reference verdict. */
export interface MetaCase {
  readonly meta: Record<string, unknown>;
  readonly valid: boolean;
  /** What the case is about, for the failure message. */
  readonly note: string;
}

const hostileChars = ['\u0000', '\ud800', '\udfff', '\u202e', '\u200f', '😀', 'é', 'İ', '\n', ' ', '/', '%', '.', '-', '_', 'A', 'Z', 'a', '0', '\\', '"'];

/** Strings built from characters kube's rules care about, plus arbitrary unicode (lone surrogates included). */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.array(fc.constantFrom(...hostileChars), { maxLength: 12 }).map((a) => a.join('')),
  fc.string({ unit: 'binary', maxLength: 16 }),
  fc.string({ unit: fc.constantFrom('a', 'b', '-', '.', '0'), minLength: 1, maxLength: 20 }),
);

const suffix = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'), minLength: 10, maxLength: 10 });

/** A fresh valid name. */
export const freshName: fc.Arbitrary<string> = suffix.map((s) => `f-${s}`);

const hostileName: fc.Arbitrary<string> = fc.oneof(
  hostileString,
  fc.constantFrom('', '.', '..', 'UPPER', 'a.b.c', 'a..b', '-a', 'a-', 'a_b', 'a/b', 'a%2Fb', 'x'.repeat(253), 'x'.repeat(254), `${'a'.repeat(63)}.${'b'.repeat(63)}`),
  fc.tuple(fc.integer({ min: 240, max: 270 }), suffix).map(([n, s]) => `${s}${'a'.repeat(n)}`.slice(0, n)),
);

const nameCase: fc.Arbitrary<MetaCase> = fc.oneof(
  { weight: 3, arbitrary: freshName.map((name) => ({ meta: { name }, valid: true, note: 'name' })) },
  { weight: 3, arbitrary: fc.tuple(hostileName, suffix).map(([n, s]) => {
    // A hostile name that happens to be valid gets a unique tail so that it cannot already exist.
    const name = isDnsSubdomain(n) && n.length < 240 ? `${n}${n.endsWith('.') || n.endsWith('-') ? 'x' : ''}.${s}` : n;
    return { meta: { name }, valid: isDnsSubdomain(name), note: 'hostile name' };
  }) },
  { weight: 2, arbitrary: fc.oneof(hostileName, fc.constantFrom('gen-', 'a', 'x'.repeat(58), 'x'.repeat(70), 'a.', 'A-', '-')).map((g) => ({
    meta: { generateName: g },
    valid: g !== '' && isValidGenerateName(g),
    note: 'generateName',
  })) },
);

const labelKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('app', 'example.com/tier', 'a'.repeat(63), 'a'.repeat(64), 'x/y/z', '/a', 'a/', 'A.B/c', 'k8s.io/', `${'a'.repeat(254)}/n`),
  hostileString,
);
const labelValue: fc.Arbitrary<string> = fc.oneof(fc.constantFrom('', 'v1', 'a'.repeat(63), 'a'.repeat(64), '-a', 'a_b.c'), hostileString);

const labelsCase: fc.Arbitrary<MetaCase> = fc.oneof(
  fc.dictionary(labelKey, labelValue, { maxKeys: 4 }).map((labels) => ({ meta: { labels }, valid: areValidLabels(labels), note: 'labels' })),
  // A huge but valid map: kube has no total limit on labels.
  fc.integer({ min: 1000, max: 5000 }).map((n) => {
    const labels = Object.fromEntries(Array.from({ length: n }, (_, i) => [`example.com/l${i}`, `v${i}`]));
    return { meta: { labels }, valid: true, note: `${n} labels` };
  }),
);

const annotationsCase: fc.Arbitrary<MetaCase> = fc.oneof(
  fc.dictionary(fc.oneof(labelKey, fc.constantFrom('UPPER/Case', 'Mixed.Case')), fc.string({ unit: 'binary', maxLength: 40 }), { maxKeys: 4 }).map((annotations) => ({
    meta: { annotations },
    valid: areValidAnnotations(annotations),
    note: 'annotations',
  })),
  // Around the 256 KiB total, in characters of 1, 2, 3 and 4 UTF-8 bytes: kube counts bytes.
  fc.tuple(fc.constantFrom('a', 'é', '€', '😀', '\ud800'), fc.integer({ min: -64, max: 64 }), fc.integer({ min: 1, max: 4 })).map(([ch, delta, parts]) => {
    const bytesPerChar = Buffer.byteLength(ch);
    const total = 256 * 1024 + delta * bytesPerChar;
    const annotations: Record<string, string> = {};
    const per = Math.floor(total / parts);
    for (let i = 0; i < parts; i++) {
      const key = `k${i}`;
      annotations[key] = ch.repeat(Math.max(0, Math.floor((per - key.length) / bytesPerChar)));
    }
    return { meta: { annotations }, valid: areValidAnnotations(annotations), note: `annotations near 256 KiB in ${JSON.stringify(ch)}` };
  }),
  fc.integer({ min: 2000, max: 12_000 }).map((n) => {
    const annotations = Object.fromEntries(Array.from({ length: n }, (_, i) => [`example.com/a${i}`, `value-${i}`.repeat(3)]));
    return { meta: { annotations }, valid: areValidAnnotations(annotations), note: `${n} annotations` };
  }),
);

/** A metadata case: a name case combined with optional labels and annotations. */
export const metaCase: fc.Arbitrary<MetaCase> = fc
  .tuple(nameCase, fc.option(labelsCase, { freq: 2 }), fc.option(annotationsCase, { freq: 2 }))
  .map(([n, l, a]) => ({
    meta: { ...n.meta, ...(l?.meta ?? {}), ...(a?.meta ?? {}) },
    valid: n.valid && (l?.valid ?? true) && (a?.valid ?? true),
    note: [n.note, l?.note, a?.note].filter(Boolean).join(', '),
  }));

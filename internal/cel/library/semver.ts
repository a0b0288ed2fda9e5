/**
 * Kubernetes' semver library: isSemver(string[, normalize]), semver(string[, normalize]), and
 * major(), minor(), patch(), isGreaterThan(), isLessThan(), compareTo() on kubernetes.Semver
 * values. normalize accepts a leading "v" and missing minor/patch, as kube's does.
 */
import { CelScalar, celFunc, celMethod, type CelFunc } from '@bufbuild/cel';
import { KubeDesc, KubeType, kubeValue, textOf } from '../types.js';

const { STRING, BOOL, INT } = CelScalar;
const S = KubeType.Semver;
const pattern = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

interface Version {
  major: bigint;
  minor: bigint;
  patch: bigint;
  pre: string[];
}

function normalize(s: string): string {
  let v = s.startsWith('v') ? s.slice(1) : s;
  const m = /^([0-9]+)(?:\.([0-9]+))?(?:\.([0-9]+))?(.*)$/.exec(v);
  if (m) {
    const strip = (x: string | undefined) => (x === undefined ? '0' : x.replace(/^0+(?=\d)/, ''));
    v = `${strip(m[1])}.${strip(m[2])}.${strip(m[3])}${m[4]}`;
  }
  return v;
}

function parse(s: string, norm = false): Version {
  const text = norm ? normalize(s) : s;
  const m = pattern.exec(text);
  if (!m) throw new Error(`could not parse semver: ${s}`);
  return { major: BigInt(m[1]!), minor: BigInt(m[2]!), patch: BigInt(m[3]!), pre: m[4] ? m[4].split('.') : [] };
}

function compare(a: Version, b: Version): number {
  for (const k of ['major', 'minor', 'patch'] as const) if (a[k] !== b[k]) return a[k] < b[k] ? -1 : 1;
  if (a.pre.length === 0 || b.pre.length === 0) return a.pre.length === b.pre.length ? 0 : a.pre.length === 0 ? 1 : -1;
  for (let i = 0; i < Math.min(a.pre.length, b.pre.length); i++) {
    const x = a.pre[i]!;
    const y = b.pre[i]!;
    if (x === y) continue;
    const xn = /^\d+$/.test(x);
    const yn = /^\d+$/.test(y);
    if (xn && yn) return BigInt(x) < BigInt(y) ? -1 : 1;
    if (xn !== yn) return xn ? -1 : 1;
    return x < y ? -1 : 1;
  }
  return Math.sign(a.pre.length - b.pre.length);
}

const make = (s: string, norm: boolean) => {
  const v = parse(s, norm);
  return kubeValue(KubeDesc.Semver, { value: `${v.major}.${v.minor}.${v.patch}${v.pre.length ? `-${v.pre.join('.')}` : ''}` });
};
const vOf = (x: unknown) => parse(textOf(x));
const ok = (fn: () => unknown) => {
  try {
    fn();
    return true;
  } catch {
    return false;
  }
};

/** The semver library's functions. */
export const semverLibrary: CelFunc[] = [
  celFunc('isSemver', [STRING], BOOL, (s) => ok(() => parse(s))),
  celFunc('isSemver', [STRING, BOOL], BOOL, (s, n) => ok(() => parse(s, n))),
  celFunc('semver', [STRING], S, (s) => make(s, false)),
  celFunc('semver', [STRING, BOOL], S, (s, n) => make(s, n)),
  celMethod('major', S, [], INT, function () {
    return vOf(this).major;
  }),
  celMethod('minor', S, [], INT, function () {
    return vOf(this).minor;
  }),
  celMethod('patch', S, [], INT, function () {
    return vOf(this).patch;
  }),
  celMethod('isGreaterThan', S, [S], BOOL, function (o) {
    return compare(vOf(this), vOf(o)) > 0;
  }),
  celMethod('isLessThan', S, [S], BOOL, function (o) {
    return compare(vOf(this), vOf(o)) < 0;
  }),
  celMethod('compareTo', S, [S], INT, function (o) {
    return BigInt(compare(vOf(this), vOf(o)));
  }),
];

/**
 * Kubernetes' ip and cidr libraries: ip(), isIP(), ip.isCanonical(), family(), isUnspecified(),
 * isLoopback(), isLinkLocalMulticast(), isLinkLocalUnicast(), isGlobalUnicast(), string(ip);
 * cidr(), isCIDR(), containsIP(), containsCIDR(), ip(), masked(), prefixLength(), string(cidr).
 */
import { CelScalar, celFunc, celMethod, type CelFunc } from '@bufbuild/cel';
import { KubeDesc, KubeType, kubeValue, textOf } from '../types.js';
import { formatIp, ipClass, maskIp, parseCidr, parseIp, prefixContains, type IpAddress, type IpPrefix } from './ip-address.js';

const { STRING, BOOL, INT } = CelScalar;
const IP = KubeType.IP;
const CIDR = KubeType.CIDR;

const ipValue = (ip: IpAddress) => kubeValue(KubeDesc.IP, { value: formatIp(ip) });
const cidrText = (p: IpPrefix) => `${formatIp(p.ip)}/${p.bits}`;
const cidrValue = (p: IpPrefix) => kubeValue(KubeDesc.CIDR, { value: cidrText(p) });
const ipOf = (v: unknown) => parseIp(textOf(v));
const cidrOf = (v: unknown) => parseCidr(textOf(v));

function succeeds(fn: () => unknown): boolean {
  try {
    fn();
    return true;
  } catch {
    return false;
  }
}

function containsCidr(outer: IpPrefix, inner: IpPrefix): boolean {
  return outer.ip.family === inner.ip.family && inner.bits >= outer.bits && prefixContains(outer, inner.ip);
}

/** The ip and cidr libraries' functions. */
export const ipLibrary: CelFunc[] = [
  celFunc('ip', [STRING], IP, (s) => ipValue(parseIp(s))),
  celFunc('isIP', [STRING], BOOL, (s) => succeeds(() => parseIp(s))),
  celFunc('ip.isCanonical', [STRING], BOOL, (s) => formatIp(parseIp(s)) === s),
  celFunc('string', [IP], STRING, (v) => textOf(v)),
  celMethod('family', IP, [], INT, function () {
    return BigInt(ipOf(this).family);
  }),
  celMethod('isUnspecified', IP, [], BOOL, function () {
    return ipClass.unspecified(ipOf(this));
  }),
  celMethod('isLoopback', IP, [], BOOL, function () {
    return ipClass.loopback(ipOf(this));
  }),
  celMethod('isLinkLocalMulticast', IP, [], BOOL, function () {
    return ipClass.linkLocalMulticast(ipOf(this));
  }),
  celMethod('isLinkLocalUnicast', IP, [], BOOL, function () {
    return ipClass.linkLocalUnicast(ipOf(this));
  }),
  celMethod('isGlobalUnicast', IP, [], BOOL, function () {
    return ipClass.globalUnicast(ipOf(this));
  }),
  celFunc('cidr', [STRING], CIDR, (s) => cidrValue(parseCidr(s))),
  celFunc('isCIDR', [STRING], BOOL, (s) => succeeds(() => parseCidr(s))),
  celFunc('string', [CIDR], STRING, (v) => textOf(v)),
  celMethod('containsIP', CIDR, [STRING], BOOL, function (s) {
    return prefixContains(cidrOf(this), parseIp(s));
  }),
  celMethod('containsIP', CIDR, [IP], BOOL, function (ip) {
    return prefixContains(cidrOf(this), ipOf(ip));
  }),
  celMethod('containsCIDR', CIDR, [STRING], BOOL, function (s) {
    return containsCidr(cidrOf(this), parseCidr(s));
  }),
  celMethod('containsCIDR', CIDR, [CIDR], BOOL, function (c) {
    return containsCidr(cidrOf(this), cidrOf(c));
  }),
  celMethod('ip', CIDR, [], IP, function () {
    return ipValue(cidrOf(this).ip);
  }),
  celMethod('masked', CIDR, [], CIDR, function () {
    const p = cidrOf(this);
    return cidrValue({ ip: maskIp(p.ip, p.bits), bits: p.bits });
  }),
  celMethod('prefixLength', CIDR, [], INT, function () {
    return BigInt(cidrOf(this).bits);
  }),
];

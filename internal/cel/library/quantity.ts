/**
 * Kubernetes' quantity library: quantity(), isQuantity(), and sign(), isInteger(), asInteger(),
 * asApproximateFloat(), add(), sub(), isGreaterThan(), isLessThan(), compareTo() on
 * kubernetes.Quantity values (held in canonical form, so equal quantities compare equal).
 */
import { CelScalar, celFunc, celMethod, type CelFunc } from '@bufbuild/cel';
import { newQuantity, parseQuantity, type Quantity } from '../../validation/quantity.js';
import { KubeDesc, KubeType, kubeValue, textOf } from '../types.js';

const { STRING, BOOL, INT, DOUBLE } = CelScalar;
const Q = KubeType.Quantity;
const maxInt = 2n ** 63n - 1n;
const minInt = -(2n ** 63n);

const syntax = /^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$/;

/** kube's ParseQuantity, with its syntax check first (a bare suffix such as "Mi" is not a quantity). */
function parse(s: string): Quantity {
  if (!syntax.test(s)) throw new Error("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  return parseQuantity(s);
}

const qValue = (q: Quantity) => kubeValue(KubeDesc.Quantity, { value: q.toString() });
const qOf = (v: unknown) => parse(textOf(v));

function asInt64(q: Quantity): bigint | undefined {
  const v = q.value();
  if (q.cmp(newQuantity(v)) !== 0 || v > maxInt || v < minInt) return undefined;
  return v;
}

/** The quantity library's functions. */
export const quantityLibrary: CelFunc[] = [
  celFunc('quantity', [STRING], Q, (s) => qValue(parse(s))),
  celFunc('isQuantity', [STRING], BOOL, (s) => {
    try {
      parse(s);
      return true;
    } catch {
      return false;
    }
  }),
  celMethod('sign', Q, [], INT, function () {
    return BigInt(qOf(this).sign());
  }),
  celMethod('isInteger', Q, [], BOOL, function () {
    return asInt64(qOf(this)) !== undefined;
  }),
  celMethod('asInteger', Q, [], INT, function () {
    const v = asInt64(qOf(this));
    if (v === undefined) throw new Error('cannot convert value to integer');
    return v;
  }),
  celMethod('asApproximateFloat', Q, [], DOUBLE, function () {
    return qOf(this).asApproximateFloat64();
  }),
  celMethod('add', Q, [Q], Q, function (o) {
    return qValue(qOf(this).add(qOf(o)));
  }),
  celMethod('add', Q, [INT], Q, function (n) {
    return qValue(qOf(this).add(newQuantity(n)));
  }),
  celMethod('sub', Q, [Q], Q, function (o) {
    return qValue(qOf(this).sub(qOf(o)));
  }),
  celMethod('sub', Q, [INT], Q, function (n) {
    return qValue(qOf(this).sub(newQuantity(n)));
  }),
  celMethod('isGreaterThan', Q, [Q], BOOL, function (o) {
    return qOf(this).cmp(qOf(o)) > 0;
  }),
  celMethod('isLessThan', Q, [Q], BOOL, function (o) {
    return qOf(this).cmp(qOf(o)) < 0;
  }),
  celMethod('compareTo', Q, [Q], INT, function (o) {
    return BigInt(Math.sign(qOf(this).cmp(qOf(o))));
  }),
];

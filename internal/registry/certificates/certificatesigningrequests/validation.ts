/**
 * CertificateSigningRequest validation (kube's pkg/apis/certificates/validation, the cheap
 * parts): a PEM "CERTIFICATE REQUEST" in spec.request that parses, known and unique usages, a
 * signer name (not the legacy one), a minimum expiration, and well-formed conditions where
 * Approved, Denied and Failed are True, Approved and Denied exclude each other, and an update
 * never removes or changes one of them.
 */
// @peculiar/x509 needs the Reflect metadata polyfill loaded first.
import 'reflect-metadata';
import { Pkcs10CertificateRequest } from '@peculiar/x509';
import type { KubeObject } from '../../../../api/meta/types.js';
import { duplicate, forbidden, indexPath, invalid, notSupported, required, type FieldError } from '../../../validation/field-error.js';
import { arrayAt, asObject, numberAt, stringAt, type JsonObject } from '../../core/shared/json-value.js';
import { semanticEqual } from '../../core/shared/semantic-equal.js';
import { decodePem } from '../shared/pem.js';
import { validateSignerName } from '../shared/signer-name.js';

/** Every key usage kube accepts. */
export const keyUsages = [
  'any', 'cert sign', 'client auth', 'code signing', 'content commitment', 'crl sign', 'data encipherment', 'decipher only',
  'digital signature', 'email protection', 'encipher only', 'ipsec end system', 'ipsec tunnel', 'ipsec user', 'key agreement',
  'key encipherment', 'microsoft sgc', 'netscape sgc', 'ocsp signing', 's/mime', 'server auth', 'signing', 'timestamping',
];
const trueFalseUnknown = ['True', 'False', 'Unknown'];
const guardedConditions = ['Approved', 'Denied', 'Failed'];

/** Why spec.request (base64 of PEM) is not a certificate request, or undefined. */
function requestError(request: unknown): string | undefined {
  const pem = typeof request === 'string' ? Buffer.from(request, 'base64').toString('latin1') : '';
  const block = decodePem(pem)[0];
  if (!block || block.type !== 'CERTIFICATE REQUEST') return 'PEM block type must be CERTIFICATE REQUEST';
  try {
    new Pkcs10CertificateRequest(block.bytes);
    return undefined;
  } catch {
    return 'x509: malformed certificate request';
  }
}

function conditionsOf(obj: KubeObject): JsonObject[] {
  return arrayAt(asObject(obj.status), 'conditions').map((c) => asObject(c) ?? {});
}

/** validateConditions. */
function validateConditions(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let approved = false;
  let denied = false;
  conditionsOf(obj).forEach((c, i) => {
    const path = indexPath('status.conditions', i);
    const type = stringAt(c, 'type');
    const status = stringAt(c, 'status');
    if (!type) errs.push(required(`${path}.type`, ''));
    if (!status) errs.push(required(`${path}.status`, ''));
    else if (!trueFalseUnknown.includes(status)) errs.push(notSupported(`${path}.status`, status, trueFalseUnknown));
    if (seen.has(type)) errs.push(duplicate(`${path}.type`, type));
    seen.add(type);
    if (type === 'Approved') approved = true;
    if (type === 'Denied') denied = true;
    if (guardedConditions.includes(type) && status !== 'True') errs.push(notSupported(`${path}.status`, status, ['True']));
  });
  if (approved && denied) errs.push(invalid('status.conditions', conditionsOf(obj), 'Approved and Denied conditions are mutually exclusive'));
  return errs;
}

/** validateCertificateSigningRequest without metadata (certificates/v1 options). Never mutates. */
export function validateCSR(obj: KubeObject): FieldError[] {
  const spec = asObject(obj.spec);
  const errs: FieldError[] = [];
  const reqErr = requestError(spec?.request);
  if (reqErr) errs.push(invalid('spec.request', spec?.request ?? '', reqErr));
  const usages = arrayAt(spec, 'usages');
  if (usages.length === 0) errs.push(required('spec.usages', ''));
  usages.forEach((u, i) => {
    if (typeof u !== 'string' || !keyUsages.includes(u)) errs.push(notSupported(indexPath('spec.usages', i), u, keyUsages));
  });
  const seen = new Set<unknown>();
  usages.forEach((u, i) => {
    if (seen.has(u)) errs.push(duplicate(indexPath('spec.usages', i), u));
    seen.add(u);
  });
  const signerName = stringAt(spec, 'signerName');
  if (signerName === 'kubernetes.io/legacy-unknown') errs.push(invalid('spec.signerName', signerName, 'the legacy signerName is not allowed via this API version'));
  else errs.push(...validateSignerName(signerName, 'spec.signerName'));
  const expiration = numberAt(spec, 'expirationSeconds');
  if (expiration !== undefined && expiration < 600) errs.push(invalid('spec.expirationSeconds', expiration, 'may not specify a duration less than 600 seconds (10 minutes)'));
  errs.push(...validateConditions(obj));
  return errs;
}

/** The update rules on top of validateCSR: Approved, Denied and Failed conditions are never removed or changed. */
export function validateCSRUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateCSR(obj);
  for (const t of guardedConditions) {
    const before = conditionsOf(old).filter((c) => c.type === t);
    const after = conditionsOf(obj).filter((c) => c.type === t);
    if (after.length < before.length) errs.push(forbidden('status.conditions', `updates may not remove a condition of type ${JSON.stringify(t)}`));
    before.forEach((c, i) => {
      if (i < after.length && !semanticEqual(c, after[i])) errs.push(forbidden('status.conditions', `updates may not modify a condition of type ${JSON.stringify(t)}`));
    });
  }
  return errs;
}

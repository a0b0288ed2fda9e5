/**
 * ClusterTrustBundle rules (kube's pkg/registry/certificates/clustertrustbundle): a name prefixed
 * by the signer name (with ":" for "/"), or free of ":" without one; a trust bundle of PEM
 * CERTIFICATE blocks without headers, each a CA certificate, at least one and none repeated; a
 * signer name that never changes; and the spec.signerName field selector.
 */
import { X509Certificate } from 'node:crypto';
import type { KubeObject } from '../../../../api/meta/types.js';
import { invalid, tooLong, type FieldError } from '../../../validation/field-error.js';
import { isDNS1123Subdomain } from '../../../validation/label-values.js';
import type { SelectableFields } from '../../generic/strategy.js';
import { validateImmutableField } from '../../core/shared/field-immutable.js';
import { asObject, stringAt } from '../../core/shared/json-value.js';
import { defineStrategy } from '../../shared/strategy-factory.js';
import { decodePem } from '../shared/pem.js';
import { validateSignerName } from '../shared/signer-name.js';

/** MaxTrustBundleSize. */
const maxTrustBundleSize = 1024 * 1024;

/** The spec.signerName field selector both served versions accept. */
export const clusterTrustBundleFields: SelectableFields = {
  extra: ['spec.signerName'],
  style: 'meta',
  values: (obj) => ({ 'spec.signerName': stringAt(asObject(obj.spec), 'signerName') }),
};

/** ValidateClusterTrustBundleName for the bundle's signer name. */
function nameErrors(name: string, signerName: string): string[] {
  if (!signerName) {
    if (name.includes(':')) return ['ClusterTrustBundle without signer name must not have ":" in its name'];
    return isDNS1123Subdomain(name);
  }
  const prefix = `${signerName.replaceAll('/', ':')}:`;
  if (!name.startsWith(prefix)) return [`ClusterTrustBundle for signerName ${signerName} must be named with prefix ${prefix}`];
  return isDNS1123Subdomain(name.slice(prefix.length));
}

/** validateTrustBundle. */
function validateTrustBundle(bundle: string): FieldError[] {
  const path = 'spec.trustBundle';
  if (bundle.length > maxTrustBundleSize) return [tooLong(path, maxTrustBundleSize)];
  const errs: FieldError[] = [];
  const seen = new Map<string, number[]>();
  decodePem(bundle).forEach((b, i) => {
    if (b.type !== 'CERTIFICATE') return errs.push(invalid(path, '<value omitted>', `entry ${i} has bad block type: ${b.type}`));
    if (Object.keys(b.headers).length > 0) return errs.push(invalid(path, '<value omitted>', `entry ${i} has PEM block headers`));
    let cert: X509Certificate;
    try {
      cert = new X509Certificate(b.bytes);
    } catch {
      return errs.push(invalid(path, '<value omitted>', `entry ${i} does not parse as X.509`));
    }
    if (!cert.ca) return errs.push(invalid(path, '<value omitted>', `entry ${i} does not have the CA bit set`));
    const key = b.bytes.toString('base64');
    seen.set(key, [...(seen.get(key) ?? []), i]);
    return undefined;
  });
  if (errs.length > 0) return errs;
  if (seen.size === 0) return [invalid(path, '<value omitted>', 'at least one trust anchor must be provided')];
  for (const indices of seen.values()) {
    if (indices.length > 1) errs.push(invalid(path, '<value omitted>', `duplicate trust anchor (indices [${indices.join(' ')}])`));
  }
  return errs;
}

/** ValidateClusterTrustBundle without the generic metadata. Never mutates. */
export function validateClusterTrustBundle(obj: KubeObject): FieldError[] {
  const spec = asObject(obj.spec);
  const signerName = stringAt(spec, 'signerName');
  const name = obj.metadata.name ?? '';
  const errs = name ? nameErrors(name, signerName).map((m) => invalid('metadata.name', name, m)) : [];
  if (signerName) errs.push(...validateSignerName(signerName, 'spec.signerName'));
  errs.push(...validateTrustBundle(stringAt(spec, 'trustBundle')));
  return errs;
}

/** The ClusterTrustBundle strategy (names are further checked against the signer name). */
export const clusterTrustBundleStrategy = defineStrategy({
  namespaced: false,
  nameValidation: 'path-segment',
  selectableFields: clusterTrustBundleFields,
  validate: validateClusterTrustBundle,
  validateUpdate: (obj, old) => [
    ...validateClusterTrustBundle(obj),
    ...validateImmutableField(asObject(obj.spec)?.signerName, asObject(old.spec)?.signerName, 'spec.signerName'),
  ],
});

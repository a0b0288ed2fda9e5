/**
 * kube's ValidateSignerName: "<domain>/<path>", the domain made of at least two DNS-1123 labels and
 * the path of DNS-1123 subdomains short enough to take a label as a suffix.
 */
import { invalid, required, tooLong, type FieldError } from '../../../validation/field-error.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../../../validation/label-values.js';

/** ValidateSignerName at path. */
export function validateSignerName(signerName: string, path: string): FieldError[] {
  if (signerName.length === 0) return [required(path, '')];
  const segments = signerName.split('/');
  if (segments.length !== 2) return [invalid(path, signerName, "must be a fully qualified domain and path of the form 'example.com/signer-name'")];
  const [domain, rest] = segments as [string, string];
  const errs: FieldError[] = [];
  if (domain.length > 253) errs.push(tooLong(path, 253));
  const labels = domain.split('.');
  for (const lbl of labels) {
    const msgs = isDNS1123Label(lbl);
    if (msgs.length > 0) {
      for (const m of msgs) errs.push(invalid(path, domain, `validating label ${JSON.stringify(lbl)}: ${m}`));
      break;
    }
  }
  if (labels.length < 2) errs.push(invalid(path, domain, 'should be a domain with at least two segments separated by dots'));
  for (const lbl of rest.split('.')) {
    const msgs = isDNS1123Subdomain(lbl);
    if (msgs.length > 0) {
      for (const m of msgs) errs.push(invalid(path, rest, `validating component ${JSON.stringify(lbl)}: ${m}`));
      break;
    }
  }
  if (rest.length > 253 - 63) errs.push(tooLong(path, 253 - 63));
  return errs;
}

/**
 * Kubernetes' format library: format.named(name) (an optional format), format.<name>() for each
 * named format, and <format>.validate(string), an optional list of errors (none when valid).
 */
import { CelScalar, celFunc, celList, celMethod, type CelFunc } from '@bufbuild/cel';
import { isDNS1035Label, isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue } from '../../validation/label-values.js';
import { KubeDesc, KubeType, kubeValue, optionalValue, textOf } from '../types.js';
import { parseRequestUri } from './url.js';

const { STRING } = CelScalar;
const F = KubeType.Format;

const maskTrailingDash = (s: string) => (s.length > 1 && s.endsWith('-') ? `${s.slice(0, -1)}a` : s);
const check = (fn: () => unknown, message: string): string[] => {
  try {
    fn();
    return [];
  } catch {
    return [message];
  }
};

/** The named formats and their validators (a list of errors; empty when valid). */
export const namedFormats: Readonly<Record<string, (s: string) => string[]>> = {
  dns1123Label: isDNS1123Label,
  dns1123Subdomain: isDNS1123Subdomain,
  dns1035Label: isDNS1035Label,
  qualifiedName: isQualifiedName,
  dns1123LabelPrefix: (s) => isDNS1123Label(maskTrailingDash(s)),
  dns1123SubdomainPrefix: (s) => isDNS1123Subdomain(maskTrailingDash(s)),
  dns1035LabelPrefix: (s) => isDNS1035Label(maskTrailingDash(s)),
  labelValue: isValidLabelValue,
  uri: (s) => check(() => parseRequestUri(s), 'invalid URI'),
  uuid: (s) => (/^(urn:uuid:)?\{?[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}\}?$/.test(s) ? [] : ['does not match the UUID format']),
  byte: (s) => (/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(s) ? [] : ['invalid base64']),
  date: (s) => (/^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) ? [] : ['invalid date']),
  datetime: (s) => (/^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(s) && !Number.isNaN(Date.parse(s)) ? [] : ['invalid datetime']),
};

const formatValue = (name: string) => kubeValue(KubeDesc.Format, { value: name });

/** The format library's functions. */
export const formatLibrary: CelFunc[] = [
  celFunc('format.named', [STRING], KubeType.Optional, (name) => optionalValue(namedFormats[name] ? formatValue(name) : undefined)),
  ...Object.keys(namedFormats).map((name) => celFunc(`format.${name}`, [], F, () => formatValue(name))),
  celMethod('validate', F, [STRING], KubeType.Optional, function (s) {
    const errs = namedFormats[textOf(this)]?.(s) ?? [];
    return optionalValue(errs.length ? celList(errs) : undefined);
  }),
];

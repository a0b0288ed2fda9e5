/**
 * Port numbers, port names and protocols as apimachinery and core validation check them
 * (IsValidPortNum, IsValidPortName, ValidatePortNumOrName, the supported protocols).
 */
import { invalid, notSupported, type FieldError } from '../../../validation/field-error.js';
import { maxLenError } from '../../../validation/label-values.js';

/** InclusiveRangeError. */
export function inclusiveRangeError(lo: number, hi: number): string {
  return `must be between ${lo} and ${hi}, inclusive`;
}

/** IsValidPortNum: 1 to 65535. */
export function isValidPortNum(port: unknown): string[] {
  return typeof port === 'number' && Number.isInteger(port) && port >= 1 && port <= 65535 ? [] : [inclusiveRangeError(1, 65535)];
}

const portNameCharset = /^[-a-z0-9]+$/;
const portNameOneLetter = /[a-z]/;

/** IsValidPortName: an IANA_SVC_NAME (at most 15 characters, a-z0-9 and single inner hyphens). */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push(maxLenError(15));
  if (!portNameCharset.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  else if (!portNameOneLetter.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}

/** ValidatePortNumOrName: an int-or-string port (targetPort); an absent one is left to defaulting. */
export function validatePortNumOrName(port: unknown, path: string): FieldError[] {
  if (port === undefined || port === null) return [];
  if (typeof port === 'number') return isValidPortNum(port).map((m) => invalid(path, port, m));
  if (typeof port === 'string') {
    if (port === '') return [];
    return isValidPortName(port).map((m) => invalid(path, port, m));
  }
  return [invalid(path, port, 'must be an integer or a string')];
}

/** The protocols a port may name, sorted as kube lists them. */
export const supportedPortProtocols: readonly string[] = ['SCTP', 'TCP', 'UDP'];

/**
 * A port protocol when present (an absent one is defaulted to TCP before kube validates, so it is
 * not an error here).
 */
export function validateProtocol(protocol: unknown, path: string): FieldError[] {
  if (protocol === undefined || protocol === null || protocol === '') return [];
  return typeof protocol === 'string' && supportedPortProtocols.includes(protocol) ? [] : [notSupported(path, protocol, supportedPortProtocols)];
}

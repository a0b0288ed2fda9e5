/**
 * apimachinery's IsConfigMapKey: the keys of ConfigMap and Secret data (they become file names
 * when mounted), with kube's texts.
 */
import { dns1123SubdomainMaxLength, maxLenError, regexError, utf8Length } from '../../../validation/label-values.js';

const configMapKeyFmt = '[-._a-zA-Z0-9]+';
const configMapKeyErrMsg = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'";
const configMapKeyRegexp = new RegExp(`^${configMapKeyFmt}$`);

/** The failure texts for key (empty when valid): length, alphabet, and no `.`/`..` path tricks. */
export function isConfigMapKey(key: string): string[] {
  const errs: string[] = [];
  if (utf8Length(key) > dns1123SubdomainMaxLength) errs.push(maxLenError(dns1123SubdomainMaxLength));
  if (!configMapKeyRegexp.test(key)) errs.push(regexError(configMapKeyErrMsg, configMapKeyFmt, 'key.name', 'KEY_NAME', 'key-name'));
  if (key === '.') errs.push("must not be '.'");
  else if (key === '..') errs.push("must not be '..'");
  else if (key.startsWith('..')) errs.push("must not start with '..'");
  return errs;
}

/**
 * spec.conversion (kube's validateCustomResourceConversion with k8s.io/apiserver's webhook
 * ValidateWebhookURL, ValidateWebhookService and ValidateCABundle), on the internal form where
 * the webhook's clientConfig is spec.conversion.webhookClientConfig. Never mutates.
 */
import { X509Certificate } from 'node:crypto';
import { childPath, forbidden, indexPath, invalid, notSupported, required, type FieldError } from '../../validation/field-error.js';
import { isDNS1035Label, isDNS1123Subdomain } from '../../validation/label-values.js';
import { asSchema, isSet, str, type Json } from './schema-walk.js';

const acceptedReviewVersions = ['v1', 'v1beta1'];
const urlForm = '; desired format: https://host[/path]';

/** ValidateWebhookURL with https forced. */
export function validateWebhookURL(path: string, raw: string): FieldError[] {
  let parts: { scheme: string; host: string; user: string; fragment: string; query: string };
  try {
    const u = new URL(raw);
    const user = u.password ? `${u.username}:${u.password}` : u.username;
    parts = { scheme: u.protocol.replace(/:$/, ''), host: u.host, user: decodeURIComponent(user), fragment: decodeURIComponent(u.hash.slice(1)), query: u.search.slice(1) };
  } catch {
    // WHATWG URL refuses what Go's url.Parse reads as a relative reference ("host/path", "/path").
    const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(raw)?.[1] ?? '';
    const hash = raw.indexOf('#');
    const query = raw.indexOf('?');
    parts = {
      scheme,
      host: '',
      user: '',
      fragment: hash >= 0 ? raw.slice(hash + 1) : '',
      query: query >= 0 ? raw.slice(query + 1, hash > query ? hash : undefined) : '',
    };
  }
  const errs: FieldError[] = [];
  if (parts.scheme !== 'https') errs.push(invalid(path, parts.scheme, `'https' is the only allowed URL scheme${urlForm}`));
  if (!parts.host) errs.push(invalid(path, parts.host, `host must be specified${urlForm}`));
  if (parts.user) errs.push(invalid(path, parts.user, 'user information is not permitted in the URL'));
  if (parts.fragment) errs.push(invalid(path, parts.fragment, 'fragments are not permitted in the URL'));
  if (parts.query) errs.push(invalid(path, parts.query, 'query parameters are not permitted in the URL'));
  return errs;
}

/**
 * ValidateWebhookService. kube's CRD validation passes the service's name where the namespace is
 * expected and the other way round, so a missing name is reported at .namespace; kept as kube does.
 */
export function validateWebhookService(path: string, service: Json): FieldError[] {
  const errs: FieldError[] = [];
  if (!str(service.namespace)) errs.push(required(childPath(path, 'name'), ''));
  if (!str(service.name)) errs.push(required(childPath(path, 'namespace'), ''));
  const port = typeof service.port === 'number' ? service.port : 443;
  if (!Number.isInteger(port) || port < 1 || port > 65535) errs.push(invalid(childPath(path, 'port'), port, 'port is not valid: must be between 1 and 65535, inclusive'));
  if (!isSet(service.path)) return errs;
  const urlPath = str(service.path);
  if (urlPath === '/' || urlPath === '') return errs;
  const p = childPath(path, 'path');
  if (urlPath === '//') return [...errs, invalid(p, urlPath, 'segment[0] may not be empty')];
  if (!urlPath.startsWith('/')) errs.push(invalid(p, urlPath, "must start with a '/'"));
  let rest = urlPath.slice(1);
  if (rest.endsWith('/')) rest = rest.slice(0, -1);
  rest.split('/').forEach((step, i) => {
    if (!step) {
      errs.push(invalid(p, urlPath, `segment[${i}] may not be empty`));
      return;
    }
    for (const m of isDNS1123Subdomain(step)) errs.push(invalid(p, urlPath, `segment[${i}]: ${m}`));
  });
  return errs;
}

/** ValidateCABundle: the (base64 in JSON) PEM bytes must hold parseable certificates. */
export function validateCABundle(path: string, caBundle: string): FieldError[] {
  const pem = Buffer.from(caBundle, 'base64').toString('latin1');
  const blocks = [...pem.matchAll(/-----BEGIN ([^-]+)-----([\s\S]*?)-----END \1-----/g)];
  const fail = (why: string) => [invalid(path, caBundle, `unable to load root certificates: ${why}`)];
  if (blocks.length === 0) return fail('unable to parse bytes as PEM block');
  let certs = 0;
  for (const b of blocks) {
    if (b[1] !== 'CERTIFICATE') continue;
    try {
      new X509Certificate(b[0]);
      certs++;
    } catch (e) {
      return fail(`failed to parse certificate: ${(e as Error).message}`);
    }
  }
  return certs > 0 ? [] : fail('unable to parse bytes as PEM block');
}

function validateReviewVersions(versions: unknown[], requireRecognized: boolean, path: string): FieldError[] {
  if (versions.length < 1) return [required(path, '')];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let accepted = false;
  versions.forEach((raw, i) => {
    const v = str(raw);
    if (seen.has(v)) {
      errs.push(invalid(indexPath(path, i), v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const m of isDNS1035Label(v)) errs.push(invalid(indexPath(path, i), v, m));
    if (acceptedReviewVersions.includes(v)) accepted = true;
  });
  if (requireRecognized && !accepted) errs.push(invalid(path, versions.map(str), `must include at least one of ${acceptedReviewVersions.join(', ')}`));
  return errs;
}

/** Options of validateConversion. */
export interface ConversionOptions {
  readonly requireRecognizedConversionReviewVersion: boolean;
  readonly allowInvalidCABundle: boolean;
}

/** spec.conversion (internal form) at path. */
export function validateConversion(conversion: Json | undefined, path: string, opts: ConversionOptions): FieldError[] {
  if (!conversion) return [];
  const errs: FieldError[] = [];
  const strategy = str(conversion.strategy);
  if (!strategy) errs.push(required(childPath(path, 'strategy'), ''));
  else if (strategy !== 'None' && strategy !== 'Webhook') errs.push(notSupported(childPath(path, 'strategy'), strategy, ['None', 'Webhook']));
  const cc = asSchema(conversion.webhookClientConfig) as Json | undefined;
  const ccPath = childPath(path, 'webhookClientConfig');
  const reviewVersions = Array.isArray(conversion.conversionReviewVersions) ? conversion.conversionReviewVersions : [];
  if (strategy === 'Webhook') {
    if (!cc) errs.push(required(ccPath, 'required when strategy is set to Webhook'));
    else {
      const hasURL = isSet(cc.url);
      const service = asSchema(cc.service) as Json | undefined;
      if (hasURL === !!service) errs.push(required(ccPath, 'exactly one of url or service is required'));
      else if (hasURL) errs.push(...validateWebhookURL(childPath(ccPath, 'url'), str(cc.url)));
      else if (service) errs.push(...validateWebhookService(childPath(ccPath, 'service'), service));
      const caBundle = str(cc.caBundle);
      if (caBundle && !opts.allowInvalidCABundle) errs.push(...validateCABundle(childPath(ccPath, 'caBundle'), caBundle));
    }
    errs.push(...validateReviewVersions(reviewVersions, opts.requireRecognizedConversionReviewVersion, childPath(path, 'conversionReviewVersions')));
  } else {
    if (cc) errs.push(forbidden(ccPath, 'should not be set when strategy is not set to Webhook'));
    if (reviewVersions.length > 0) errs.push(forbidden(childPath(path, 'conversionReviewVersions'), 'should not be set when strategy is not set to Webhook'));
  }
  return errs;
}

/** True when the CA bundle of a stored conversion webhook does not parse (kube lets it stay so). */
export function hasInvalidCABundle(conversion: Json | undefined): boolean {
  const caBundle = str((asSchema(conversion?.webhookClientConfig) as Json | undefined)?.caBundle);
  return caBundle.length > 0 && validateCABundle('caBundle', caBundle).length > 0;
}

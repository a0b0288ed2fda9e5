/**
 * core/v1 PodLogOptions as a query carries them (the API server's pods/log and the kubelet's
 * /containerLogs both decode them): kube's parameter decoding (Convert_Slice_string_To_bool,
 * strconv.ParseInt, RFC 3339 times) and ValidatePodLogOptions, with kube's texts.
 */
import { parseInt64Error, queryBool } from '../request/query-params.js';

/** Decoded PodLogOptions. */
export interface PodLogOptions {
  readonly container?: string;
  readonly follow: boolean;
  readonly previous: boolean;
  readonly timestamps: boolean;
  readonly sinceSeconds?: number;
  /** RFC 3339 as given. */
  readonly sinceTime?: string;
  readonly sinceTimeMs?: number;
  readonly tailLines?: number;
  readonly limitBytes?: number;
  readonly insecureSkipTLSVerifyBackend: boolean;
  readonly stream?: string;
}

/** A query value that does not decode (kube answers 400 with this text). */
export class PodLogOptionsDecodeError extends Error {}

/** One validation failure (kube's field.Error). */
export interface PodLogOptionsFieldError {
  readonly reason: 'FieldValueInvalid' | 'FieldValueForbidden';
  readonly field: string;
  /** The message without the field ("Invalid value: -1: must be ..."). */
  readonly message: string;
}

function parseInt64(v: string): number {
  const err = parseInt64Error(v);
  if (err) throw new PodLogOptionsDecodeError(err);
  return Number(v);
}

const rfc3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

/**
 * Decodes the query as kube's parameter codec decodes PodLogOptions (the generated url.Values
 * conversion, on the API server and on the kubelet alike): the first value of a parameter counts,
 * booleans are false only for "0" and "false" (any case), integers present but empty or not
 * numbers are refused, and an empty or "null" sinceTime is unset.
 */
export function parsePodLogOptions(query: URLSearchParams): PodLogOptions {
  const last = (k: string): string | undefined => query.get(k) ?? undefined;
  const bool = (k: string): boolean => queryBool(query.get(k)) ?? false;
  const int = (k: string): number | undefined => {
    const v = query.get(k);
    return v === null ? undefined : parseInt64(v);
  };
  const sinceTime = last('sinceTime');
  let sinceTimeMs: number | undefined;
  if (sinceTime !== undefined && sinceTime !== '' && sinceTime !== 'null') {
    sinceTimeMs = rfc3339.test(sinceTime) ? Date.parse(sinceTime) : NaN;
    if (Number.isNaN(sinceTimeMs)) throw new PodLogOptionsDecodeError(`parsing time ${JSON.stringify(sinceTime)} as "2006-01-02T15:04:05Z07:00": cannot parse ${JSON.stringify(sinceTime)} as "2006"`);
  }
  const container = last('container');
  const stream = last('stream');
  const sinceSeconds = int('sinceSeconds');
  const tailLines = int('tailLines');
  const limitBytes = int('limitBytes');
  return {
    ...(container ? { container } : {}),
    follow: bool('follow'),
    previous: bool('previous'),
    timestamps: bool('timestamps'),
    insecureSkipTLSVerifyBackend: bool('insecureSkipTLSVerifyBackend'),
    ...(sinceSeconds !== undefined ? { sinceSeconds } : {}),
    ...(sinceTime && sinceTimeMs !== undefined ? { sinceTime, sinceTimeMs } : {}),
    ...(tailLines !== undefined ? { tailLines } : {}),
    ...(limitBytes !== undefined ? { limitBytes } : {}),
    ...(stream !== undefined && stream !== '' ? { stream } : {}),
  };
}

/** kube's ValidatePodLogOptions (PodLogsQuerySplitStreams off, as 1.33 has it: no stream). */
export function validatePodLogOptions(o: PodLogOptions): PodLogOptionsFieldError[] {
  const errs: PodLogOptionsFieldError[] = [];
  if (o.tailLines !== undefined && o.tailLines < 0) errs.push({ reason: 'FieldValueInvalid', field: 'tailLines', message: `Invalid value: ${o.tailLines}: must be greater than or equal to 0` });
  if (o.limitBytes !== undefined && o.limitBytes < 1) errs.push({ reason: 'FieldValueInvalid', field: 'limitBytes', message: `Invalid value: ${o.limitBytes}: must be greater than 0` });
  if (o.sinceSeconds !== undefined && o.sinceTime !== undefined) {
    errs.push({ reason: 'FieldValueForbidden', field: '', message: 'Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified' });
  } else if (o.sinceSeconds !== undefined && o.sinceSeconds < 1) {
    errs.push({ reason: 'FieldValueInvalid', field: 'sinceSeconds', message: `Invalid value: ${o.sinceSeconds}: must be greater than 0` });
  }
  if (o.stream !== undefined) errs.push({ reason: 'FieldValueForbidden', field: 'stream', message: 'Forbidden: may not be specified' });
  return errs;
}

/** The query the API server sends the kubelet (kube's LogLocation parameters). */
export function kubeletLogQuery(o: PodLogOptions): URLSearchParams {
  const p = new URLSearchParams();
  if (o.follow) p.set('follow', 'true');
  if (o.limitBytes !== undefined) p.set('limitBytes', String(o.limitBytes));
  if (o.previous) p.set('previous', 'true');
  if (o.sinceSeconds !== undefined) p.set('sinceSeconds', String(o.sinceSeconds));
  if (o.sinceTimeMs !== undefined) p.set('sinceTime', new Date(o.sinceTimeMs).toISOString().replace(/\.\d{3}Z$/, 'Z'));
  if (o.tailLines !== undefined) p.set('tailLines', String(o.tailLines));
  if (o.timestamps) p.set('timestamps', 'true');
  return p;
}

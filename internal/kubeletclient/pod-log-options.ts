/**
 * core/v1 PodLogOptions as a query carries them (the API server's pods/log and the kubelet's
 * /containerLogs both decode them): kube's parameter decoding (Go's ParseBool and ParseInt, RFC 3339
 * times) and ValidatePodLogOptions, with kube's texts.
 */

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

function parseBool(name: string, v: string): boolean {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(v)) return false;
  throw new PodLogOptionsDecodeError(`strconv.ParseBool: parsing ${JSON.stringify(v)}: invalid syntax`);
}

function parseInt64(v: string): number {
  if (!/^[+-]?\d+$/.test(v)) throw new PodLogOptionsDecodeError(`strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`);
  const n = Number(v);
  if (!Number.isSafeInteger(n)) throw new PodLogOptionsDecodeError(`strconv.ParseInt: parsing ${JSON.stringify(v)}: value out of range`);
  return n;
}

const rfc3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

/** Decodes the query (the last value of a repeated parameter wins, as Go's decoder takes it). */
export function parsePodLogOptions(query: URLSearchParams): PodLogOptions {
  const last = (k: string): string | undefined => {
    const all = query.getAll(k);
    return all.length > 0 ? all[all.length - 1] : undefined;
  };
  const bool = (k: string): boolean => {
    const v = last(k);
    return v === undefined || v === '' ? false : parseBool(k, v);
  };
  const int = (k: string): number | undefined => {
    const v = last(k);
    return v === undefined || v === '' ? undefined : parseInt64(v);
  };
  const sinceTime = last('sinceTime');
  let sinceTimeMs: number | undefined;
  if (sinceTime !== undefined && sinceTime !== '') {
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

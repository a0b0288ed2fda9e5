/**
 * The query parameters of create, update and patch (metav1.CreateOptions, UpdateOptions,
 * PatchOptions): dryRun, fieldManager, fieldValidation and force, validated as kube validates
 * them, with 422 Invalid naming the options kind for a bad value.
 */
import { newInvalid } from '../../apierrors/factories.js';
import { fieldErrorCause, forbidden, invalid, notSupported, required, tooLong, type FieldError } from '../../validation/field-error.js';
import { queryBool } from '../../request/query-params.js';

/** How unknown and duplicate fields in a body are treated. */
export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

/** Validated write options. */
export interface ParsedWriteOptions {
  readonly dryRun: boolean;
  readonly fieldManager?: string;
  /** Warn when the client did not say (kube's default since 1.27). */
  readonly fieldValidation: FieldValidation;
  readonly force?: boolean;
}

/** kube's FieldManagerMaxLength. */
export const fieldManagerMaxLength = 128;

const validationValues = ['', 'Ignore', 'Strict', 'Warn'];

function isPrintable(s: string): boolean {
  // Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
  return /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]*$/u.test(s);
}

/**
 * Parses and validates the options of a write; kind is CreateOptions, UpdateOptions or
 * PatchOptions; isApply marks a server-side apply patch.
 */
export function parseWriteOptions(query: URLSearchParams, kind: 'CreateOptions' | 'UpdateOptions' | 'PatchOptions', isApply = false): ParsedWriteOptions {
  const errs: FieldError[] = [];
  const dryRunValues = query.getAll('dryRun');
  for (const v of dryRunValues) {
    if (v !== 'All') {
      errs.push(notSupported('dryRun', dryRunValues, ['All']));
      break;
    }
  }
  const fieldManager = query.get('fieldManager') ?? '';
  const tooLongManager = Buffer.byteLength(fieldManager) > fieldManagerMaxLength;
  if (tooLongManager) errs.push(tooLong('fieldManager', fieldManagerMaxLength));
  // Go's %#U of a non-printable rune, at its byte position, as kube's ValidateFieldManager words it.
  // kube adds one such error per rune, each quoting the whole value: an answer growing with the
  // square of the value's length (gigabytes for a long query). Past the length limit, which
  // already refuses the value, Capstan leaves them out (README, differences).
  let bytePos = 0;
  for (const ch of tooLongManager ? '' : fieldManager) {
    if (!isPrintable(ch)) {
      const cp = (ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
      errs.push(invalid('fieldManager', fieldManager, `invalid character U+${cp} (at position ${bytePos})`));
    }
    bytePos += Buffer.byteLength(ch);
  }
  const fieldValidation = query.get('fieldValidation') ?? '';
  if (!validationValues.includes(fieldValidation)) errs.push(notSupported('fieldValidation', fieldValidation, validationValues));
  const forceText = query.get('force');
  // *bool through kube's parameter codec: false only for 0 and false (any case).
  const force = queryBool(forceText);
  if (kind === 'PatchOptions') {
    if (isApply && fieldManager === '') errs.push(required('fieldManager', 'is required for apply patch'));
    if (!isApply && force !== undefined) errs.push(forbidden('force', 'may not be specified for non-apply patch'));
  }
  if (errs.length > 0) throw newInvalid('meta.k8s.io', kind, '', errs.map(fieldErrorCause));
  return {
    dryRun: dryRunValues.length > 0,
    ...(fieldManager ? { fieldManager } : {}),
    fieldValidation: (fieldValidation || 'Warn') as FieldValidation,
    ...(force !== undefined ? { force } : {}),
  };
}

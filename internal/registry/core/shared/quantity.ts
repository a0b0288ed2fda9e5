/**
 * Container-resource quantities as exact nano-unit counts, for comparisons (requests against
 * limits, QoS sums). Parsing is kube's (internal/validation/quantity.ts); parsed quantities never
 * hold anything finer than a nano-unit, so the count is exact.
 */
import { quantityFromJSON } from '../../../validation/quantity.js';
import { quantityFormatWrongMessage } from '../../../validation/quantity-syntax.js';

/** The message kube's decoder gives for a malformed quantity. */
export const quantityFormatError = quantityFormatWrongMessage;

/**
 * The quantity as nano-units, or undefined when it is absent or does not parse. JSON numbers are
 * accepted and strings trimmed, as kube's Quantity unmarshals them.
 */
export function parseQuantityNanos(value: unknown): bigint | undefined {
  if (value === undefined || value === null) return undefined;
  try {
    return quantityFromJSON(value).scaledValue(-9);
  } catch {
    return undefined;
  }
}

/**
 * --service-node-port-range as kube reads it (utilnet.PortRange.Set): "30000-32767", "30000+2767"
 * or a single port, with kube's messages for values it refuses.
 */

/** A range of ports: base..base+size-1. */
export interface PortRange {
  readonly base: number;
  readonly size: number;
}

/** kube's DefaultServiceNodePortRange. */
export const defaultServiceNodePortRange: PortRange = { base: 30000, size: 2768 };

/** The range as kube prints it ("30000-32767"). */
export function portRangeString(pr: PortRange): string {
  return `${pr.base}-${pr.base + pr.size - 1}`;
}

/** True when port lies in the range. */
export function portRangeContains(pr: PortRange, port: number): boolean {
  return port >= pr.base && port - pr.base < pr.size;
}

function atoi(text: string): number {
  if (!/^[+-]?\d+$/.test(text)) throw new Error(`strconv.Atoi: parsing ${JSON.stringify(text)}: invalid syntax`);
  return Number(text);
}

/** Parses a port range; throws Error with kube's text. An empty value is the empty range. */
export function parsePortRange(input: string): PortRange {
  const value = input.trim();
  if (value === '') return { base: 0, size: 0 };
  const hyphen = value.indexOf('-');
  const plus = value.indexOf('+');
  let low: number;
  let high: number;
  if (hyphen < 0 && plus < 0) {
    low = high = atoi(value);
  } else if (hyphen >= 0 && plus < 0) {
    low = atoi(value.slice(0, hyphen));
    high = atoi(value.slice(hyphen + 1));
  } else if (plus >= 0 && hyphen < 0) {
    low = atoi(value.slice(0, plus));
    high = low + atoi(value.slice(plus + 1));
  } else {
    throw new Error(`unable to parse port range: ${value}`);
  }
  if (low > 65535 || high > 65535) throw new Error(`the port range cannot be greater than 65535: ${value}`);
  if (high < low) throw new Error(`end port cannot be less than start port: ${value}`);
  return { base: low, size: 1 + high - low };
}

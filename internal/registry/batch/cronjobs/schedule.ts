/**
 * The cron schedule syntax CronJobs accept: robfig/cron v3's ParseStandard (five fields, or a
 * descriptor such as @daily or "@every 1h", optionally after TZ=/CRON_TZ=), returning the error
 * text that parser gives so validation messages match kube's.
 */

interface Bounds {
  readonly min: number;
  readonly max: number;
  readonly names?: Readonly<Record<string, number>>;
}

const minutes: Bounds = { min: 0, max: 59 };
const hours: Bounds = { min: 0, max: 23 };
const dom: Bounds = { min: 1, max: 31 };
const months: Bounds = {
  min: 1,
  max: 12,
  names: { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 },
};
const dow: Bounds = { min: 0, max: 6, names: { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 } };

const descriptors = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);

/** Go's strconv.Atoi, with its error text. */
function atoi(s: string): number {
  if (!/^[+-]?[0-9]+$/.test(s)) throw new Error(`strconv.Atoi: parsing ${JSON.stringify(s)}: invalid syntax`);
  const n = Number(s);
  if (!Number.isSafeInteger(n)) throw new Error(`strconv.Atoi: parsing ${JSON.stringify(s)}: value out of range`);
  return n;
}

function mustParseInt(expr: string): number {
  let n: number;
  try {
    n = atoi(expr);
  } catch (err) {
    throw new Error(`failed to parse int from ${expr}: ${(err as Error).message}`);
  }
  if (n < 0) throw new Error(`negative number (${n}) not allowed: ${expr}`);
  return n;
}

function parseIntOrName(expr: string, names: Bounds['names']): number {
  const named = names?.[expr.toLowerCase()];
  return named !== undefined ? named : mustParseInt(expr);
}

function checkRange(expr: string, r: Bounds): void {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = (rangeAndStep[0] as string).split('-');
  let start: number;
  let end: number;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = r.min;
    end = r.max;
  } else {
    start = parseIntOrName(lowAndHigh[0] as string, r.names);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseIntOrName(lowAndHigh[1] as string, r.names);
    else throw new Error(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = mustParseInt(rangeAndStep[1] as string);
    if (lowAndHigh.length === 1) end = r.max;
  } else if (rangeAndStep.length > 2) {
    throw new Error(`too many slashes: ${expr}`);
  }
  if (start < r.min) throw new Error(`beginning of range (${start}) below minimum (${r.min}): ${expr}`);
  if (end > r.max) throw new Error(`end of range (${end}) above maximum (${r.max}): ${expr}`);
  if (start > end) throw new Error(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new Error(`step of range should be a positive number: ${expr}`);
}

function checkField(field: string, r: Bounds): void {
  for (const expr of field.split(',').filter((e) => e !== '')) checkRange(expr, r);
}

/** Go's time.ParseDuration acceptance (units ns, us, µs, ms, s, m, h). */
function isGoDuration(s: string): boolean {
  return /^[+-]?(?:0|(?:(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:ns|us|µs|μs|ms|s|m|h))+)$/.test(s);
}

/** True when Intl knows the IANA zone name (Go's time.LoadLocation). */
export function isKnownTimeZone(zone: string): boolean {
  if (zone === 'UTC' || zone === 'Local') return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Why spec is not a valid standard cron schedule, or undefined when it is. */
export function cronScheduleError(spec: string): string | undefined {
  try {
    parseStandard(spec);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

function parseStandard(input: string): void {
  let spec = input;
  if (spec.length === 0) throw new Error('empty spec string');
  if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) {
    const i = spec.indexOf(' ');
    const eq = spec.indexOf('=');
    const zone = i < 0 ? spec.slice(eq + 1) : spec.slice(eq + 1, i);
    if (!isKnownTimeZone(zone)) throw new Error(`provided bad location ${zone}: unknown time zone ${zone}`);
    spec = i < 0 ? '' : spec.slice(i).trim();
  }
  if (spec.startsWith('@')) {
    if (descriptors.has(spec)) return;
    const every = '@every ';
    if (spec.startsWith(every)) {
      const d = spec.slice(every.length);
      if (!isGoDuration(d)) throw new Error(`failed to parse duration ${spec}: time: invalid duration ${JSON.stringify(d)}`);
      return;
    }
    throw new Error(`unrecognized descriptor: ${spec}`);
  }
  const fields = spec.split(/\s+/).filter((f) => f !== '');
  if (fields.length !== 5) throw new Error(`expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`);
  const bounds = [minutes, hours, dom, months, dow];
  fields.forEach((f, i) => checkField(f, bounds[i] as Bounds));
}

// Prints the failing tests of a `make test` run as the last lines of its output, one line each, so
// that a CI log's tail names them. Reads the spec reporter's file (argument 1); the whole report,
// with stacks, stays in that file.
import { readFileSync } from 'node:fs';

export interface Failure {
  location: string;
  name: string;
  message: string;
}

export function failuresOf(report: string): Failure[] {
  const start = report.lastIndexOf('\u2716 failing tests:');
  if (start < 0) return [];
  const lines = report.slice(start).split('\n').slice(1);
  const out: Failure[] = [];
  let location = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const at = /^test at (.+)$/.exec(line);
    if (at) {
      location = at[1].replace(/^file:\/\//, '');
      continue;
    }
    const name = /^\u2716 (.+?)(?: \([\d.]+m?s\))?$/.exec(line);
    if (name) {
      let message = '';
      for (let j = i + 1; j < lines.length && !message; j++) {
        if (/^\S/.test(lines[j])) break;
        message = lines[j].trim();
      }
      out.push({ location, name: name[1], message });
      location = '';
    }
  }
  return out;
}

function main(): void {
  const file = process.argv[2];
  let report = '';
  try {
    report = readFileSync(file, 'utf8');
  } catch {
    console.log(`(no test report at ${file})`);
    return;
  }
  const failures = failuresOf(report);
  if (failures.length === 0) {
    console.log(`(no failing test listed in ${file}; the run itself failed)`);
    return;
  }
  console.log(`failing tests (${failures.length}; stacks in ${file}):`);
  for (const f of failures.slice(0, 25)) {
    const message = f.message.length > 160 ? `${f.message.slice(0, 157)}...` : f.message;
    console.log(`  ${f.location || '?'} | ${f.name} | ${message}`);
  }
  if (failures.length > 25) console.log(`  ... and ${failures.length - 25} more`);
}

if (process.argv[1] && import.meta.url === `file://${process.argv[1]}`) main();

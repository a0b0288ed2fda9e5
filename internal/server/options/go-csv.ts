/**
 * CSV as Go's encoding/csv Reader reads it with its defaults (comma separator, no comments, strict
 * quotes, any number of fields per record): kube-apiserver reads --token-auth-file with it, and
 * pflag reads every string-slice flag value as one CSV record. Same records, same errors
 * ("parse error on line 2, column 5: bare \" in non-quoted-field"), so a file or flag kube refuses
 * is refused here with kube's words.
 */

/** A syntax error, with Go's message. */
export class GoCsvError extends Error {}

const bareQuote = 'bare " in non-quoted-field';
const badQuote = 'extraneous or missing " in quoted-field';

function parseError(startLine: number, line: number, column: number, what: string): GoCsvError {
  const where = startLine !== line ? `record on line ${startLine}; parse error on line ${line}, column ${column}` : `parse error on line ${line}, column ${column}`;
  return new GoCsvError(`${where}: ${what}`);
}

/** 1-based byte column of index i in text. */
function column(text: string, i: number): number {
  return Buffer.byteLength(text.slice(0, i)) + 1;
}

/**
 * The records of text. Lines end with \n or \r\n; empty lines are skipped; a quoted field may span
 * lines and escapes a quote as "". Throws GoCsvError on a bare or unterminated quote.
 */
export function readGoCsv(text: string): string[][] {
  // Go normalises \r\n to \n and reads a last line without its newline as if it had one.
  const lines = text.split('\n').map((l, i, all) => (i < all.length - 1 || l.length > 0 ? l.replace(/\r$/, '') : undefined));
  if (lines[lines.length - 1] === undefined) lines.pop();
  const records: string[][] = [];
  let n = 0;
  while (n < lines.length) {
    let line = lines[n] as string;
    n++;
    if (line.length === 0) continue;
    const startLine = n;
    const fields: string[] = [];
    let pos = 0;
    for (;;) {
      if (line[pos] !== '"') {
        const comma = line.indexOf(',', pos);
        const field = comma >= 0 ? line.slice(pos, comma) : line.slice(pos);
        const q = field.indexOf('"');
        if (q >= 0) throw parseError(startLine, n, column(line, pos + q), bareQuote);
        fields.push(field);
        if (comma < 0) break;
        pos = comma + 1;
        continue;
      }
      // A quoted field: up to the quote that is not doubled, across lines if need be.
      let value = '';
      pos++;
      let done = false;
      while (!done) {
        const q = line.indexOf('"', pos);
        if (q < 0) {
          value += line.slice(pos) + '\n';
          if (n >= lines.length) throw parseError(startLine, n, column(line, line.length) + 1, badQuote);
          line = lines[n] as string;
          n++;
          pos = 0;
          continue;
        }
        value += line.slice(pos, q);
        const next = line[q + 1];
        if (next === '"') {
          value += '"';
          pos = q + 2;
        } else if (next === ',') {
          fields.push(value);
          pos = q + 2;
          done = true;
        } else if (next === undefined) {
          fields.push(value);
          pos = -1;
          done = true;
        } else {
          throw parseError(startLine, n, column(line, q), badQuote);
        }
      }
      if (pos < 0) break;
    }
    records.push(fields);
  }
  return records;
}

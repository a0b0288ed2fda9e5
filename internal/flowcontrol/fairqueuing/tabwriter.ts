/**
 * Go's text/tabwriter as kube's APF debug dumps use it (NewWriter(w, 8, 0, 1, ' ', 0)): cells end
 * with a tab, a column block is a run of consecutive lines that have a cell in that column, every
 * cell of a block is padded with spaces to the block's widest cell plus one (at least 8), and a
 * line's last, untabbed cell is written as it is.
 */

const minWidth = 8;
const padding = 1;

/** Formats text (lines separated by "\n", cells terminated by "\t") as Go's tabwriter would. */
export function tabwrite(text: string): string {
  const endsWithNewline = text.endsWith('\n');
  const lines = (endsWithNewline ? text.slice(0, -1) : text).split('\n').map((l) => l.split('\t'));
  const widths: number[] = [];
  const out: string[] = [];
  const runeLength = (s: string): number => [...s].length;

  const writeLines = (line0: number, line1: number): void => {
    for (let i = line0; i < line1; i++) {
      const cells = lines[i] as string[];
      let s = '';
      for (let j = 0; j < cells.length; j++) {
        const c = cells[j] as string;
        if (j < widths.length && j < cells.length - 1) s += c + ' '.repeat(Math.max(0, (widths[j] as number) - runeLength(c)));
        else s += c;
      }
      out.push(s);
    }
  };

  const format = (line0: number, line1: number): void => {
    const column = widths.length;
    for (let t = line0; t < line1; t++) {
      if (column >= (lines[t] as string[]).length - 1) continue;
      writeLines(line0, t);
      line0 = t;
      let width = minWidth;
      let end = t;
      for (; end < line1; end++) {
        const cells = lines[end] as string[];
        if (column >= cells.length - 1) break;
        width = Math.max(width, runeLength(cells[column] as string) + padding);
      }
      widths.push(width);
      format(line0, end);
      widths.pop();
      line0 = end;
      t = end - 1;
    }
    writeLines(line0, line1);
  };

  format(0, lines.length);
  return out.join('\n') + (endsWithNewline ? '\n' : '');
}

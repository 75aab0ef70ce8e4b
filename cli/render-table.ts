// Plain-text tables for results: columns padded, numbers right-aligned, a rule under the header.
export interface Column<Row> {
  header: string;
  value: (row: Row) => string | number;
  align?: 'left' | 'right';
}

export function renderTable<Row>(columns: Column<Row>[], rows: Row[], footer?: Row): string {
  const body = rows.map((row) => columns.map((c) => String(c.value(row))));
  const foot = footer ? columns.map((c) => String(c.value(footer))) : undefined;
  const widths = columns.map((c, i) =>
    Math.max(c.header.length, ...body.map((r) => r[i]!.length), foot ? foot[i]!.length : 0),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (columns[i]!.align === 'right' ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  const rule = widths.map((w) => '─'.repeat(w)).join('  ');
  const out = [line(columns.map((c) => c.header)), rule, ...body.map(line)];
  if (foot) out.push(rule, line(foot));
  return out.join('\n');
}

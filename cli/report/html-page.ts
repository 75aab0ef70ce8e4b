// The shell of a self-contained report page: inline CSS, no script, no external resource, so the
// file opens anywhere with no network and can be mailed or attached as it is.

export function escapeHtml(text: unknown): string {
  return String(text).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

export function usd(value: number | undefined, digits = 4): string {
  return value === undefined || !Number.isFinite(value) ? '—' : `$${value.toFixed(digits)}`;
}

/** A plain table; cells are escaped unless given as `{ html }`. */
export function htmlTable(
  headers: string[],
  rows: (string | number | { html: string })[][],
  options: { numericFrom?: number } = {},
): string {
  const numericFrom = options.numericFrom ?? headers.length;
  const cell = (value: string | number | { html: string }, index: number, tag: 'td' | 'th') =>
    `<${tag}${index >= numericFrom ? ' class="num"' : ''}>${typeof value === 'object' ? value.html : escapeHtml(value)}</${tag}>`;
  return `<table><thead><tr>${headers.map((h, i) => cell(h, i, 'th')).join('')}</tr></thead><tbody>${rows.map((row) => `<tr>${row.map((v, i) => cell(v, i, 'td')).join('')}</tr>`).join('')}</tbody></table>`;
}

const style = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px auto;max-width:1100px;padding:0 16px;color:#1d2433}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #dde2ea;padding-bottom:4px}
.meta{color:#5a6475;margin:0 0 12px}.meta code{font-size:12px}
table{border-collapse:collapse;margin:8px 0;font-variant-numeric:tabular-nums}
th,td{padding:3px 10px;border-bottom:1px solid #e8ebf0;text-align:left;vertical-align:top}th{background:#f4f6f9}
td.num,th.num{text-align:right}
.cards{display:flex;gap:12px;flex-wrap:wrap;margin:12px 0}.card{border:1px solid #dde2ea;border-radius:6px;padding:8px 14px;min-width:120px}
.card b{display:block;font-size:20px}.card span{color:#5a6475;font-size:12px}
.ok{color:#17803d}.bad{color:#b42318}.note{color:#5a6475;font-size:12px}
svg text{font:11px system-ui,sans-serif;fill:#1d2433}
.legend span{display:inline-block;margin-right:14px;font-size:12px}.legend i{display:inline-block;width:10px;height:10px;margin-right:4px;vertical-align:-1px}
`;

export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${style}</style></head>
<body>
${body}
</body></html>
`;
}

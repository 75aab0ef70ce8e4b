// Small charts drawn as inline SVG by our own code (no chart library, nothing fetched at view time):
// horizontal bars, passed-of-total bars, a scatter, a lane-per-scenario timeline, a histogram.
// Every mark carries a <title>, which browsers show on hover.
import { escapeHtml } from './html-page.ts';

const palette = [
  '#4e79a7',
  '#f28e2b',
  '#e15759',
  '#76b7b2',
  '#59a14f',
  '#edc948',
  '#b07aa1',
  '#ff9da7',
  '#9c755f',
  '#bab0ac',
];
// The allowlist's models keep one colour each across every report.
const fixedColors: Record<string, string> = {
  'deepseek-v4-flash-0731': palette[0]!,
  'deepseek-v4.1-flash': palette[3]!,
  'qwen3.6-35b-a3b': palette[4]!,
  'qwen3.8-27b': palette[5]!,
  'glm-5.3-flash': palette[1]!,
  'glm-5.2': palette[6]!,
  'glm-5.3': palette[8]!,
  'kimi-k3': palette[2]!,
};

export function modelColor(model: string): string {
  const fixed = fixedColors[model];
  if (fixed) return fixed;
  let hash = 0;
  for (const c of model) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
  return palette[hash % palette.length]!;
}

export function legend(entries: { label: string; color: string }[]): string {
  return `<div class="legend">${entries.map((e) => `<span><i style="background:${e.color}"></i>${escapeHtml(e.label)}</span>`).join('')}</div>`;
}

const round = (value: number) => Math.round(value * 10) / 10;

function svg(width: number, height: number, body: string, label: string): string {
  return `<svg width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(label)}">${body}</svg>`;
}

/** One bar per item, scaled to the largest value. */
export function barChart(
  items: { label: string; value: number; color: string; text: string }[],
  options: { label: string; width?: number },
): string {
  const width = options.width ?? 640;
  const labelWidth = 190;
  const row = 22;
  const max = Math.max(...items.map((i) => i.value), 0) || 1;
  const span = width - labelWidth - 90;
  const body = items
    .map((item, index) => {
      const y = index * row + 4;
      const w = round((item.value / max) * span);
      return (
        `<text x="${labelWidth - 6}" y="${y + 13}" text-anchor="end">${escapeHtml(item.label)}</text>` +
        `<rect x="${labelWidth}" y="${y}" width="${Math.max(w, 1)}" height="16" fill="${item.color}"><title>${escapeHtml(`${item.label}: ${item.text}`)}</title></rect>` +
        `<text x="${labelWidth + Math.max(w, 1) + 6}" y="${y + 13}">${escapeHtml(item.text)}</text>`
      );
    })
    .join('');
  return svg(width, items.length * row + 8, body, options.label);
}

/** Tests passed of total per row: the total in grey, the passed part in green. */
export function passedBars(
  items: { label: string; passed: number; total: number; note: string }[],
  options: { label: string; width?: number },
): string {
  const width = options.width ?? 640;
  const labelWidth = 190;
  const row = 22;
  const max = Math.max(...items.map((i) => i.total), 0) || 1;
  const span = width - labelWidth - 120;
  const body = items
    .map((item, index) => {
      const y = index * row + 4;
      const totalWidth = round((item.total / max) * span);
      const passedWidth = round((item.passed / max) * span);
      return (
        `<text x="${labelWidth - 6}" y="${y + 13}" text-anchor="end">${escapeHtml(item.label)}</text>` +
        `<rect x="${labelWidth}" y="${y}" width="${Math.max(totalWidth, 1)}" height="16" fill="#e3e7ee"/>` +
        `<rect x="${labelWidth}" y="${y}" width="${passedWidth}" height="16" fill="#59a14f"><title>${escapeHtml(`${item.label}: ${item.passed}/${item.total} tests, ${item.note}`)}</title></rect>` +
        `<text x="${labelWidth + Math.max(totalWidth, 1) + 6}" y="${y + 13}">${item.passed}/${item.total} · ${escapeHtml(item.note)}</text>`
      );
    })
    .join('');
  return svg(width, items.length * row + 8, body, options.label);
}

/** Points on x (cost) and y (tests); the highlighted one is this run. */
export function scatterChart(
  points: { x: number; y: number; label: string; highlight: boolean }[],
  options: {
    label: string;
    xLabel: string;
    yLabel: string;
    formatX: (v: number) => string;
    width?: number;
    height?: number;
  },
): string {
  const width = options.width ?? 640;
  const height = options.height ?? 320;
  const left = 56;
  const bottom = 40;
  const top = 16;
  const right = 150;
  const maxX = Math.max(...points.map((p) => p.x), 0) * 1.1 || 1;
  // A multiple of 4, so the quarter ticks are whole tests.
  const maxY = Math.ceil((Math.max(...points.map((p) => p.y), 0) * 1.1) / 4) * 4 || 4;
  const px = (x: number) => round(left + (x / maxX) * (width - left - right));
  const py = (y: number) => round(height - bottom - (y / maxY) * (height - bottom - top));
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  const axes =
    `<line x1="${left}" y1="${height - bottom}" x2="${width - right}" y2="${height - bottom}" stroke="#8892a2"/>` +
    `<line x1="${left}" y1="${top}" x2="${left}" y2="${height - bottom}" stroke="#8892a2"/>` +
    ticks
      .map(
        (t) =>
          `<text x="${px(t * maxX)}" y="${height - bottom + 14}" text-anchor="middle">${escapeHtml(options.formatX(t * maxX))}</text>`,
      )
      .join('') +
    ticks
      .map((t) => `<text x="${left - 6}" y="${py(t * maxY) + 4}" text-anchor="end">${round(t * maxY)}</text>`)
      .join('') +
    `<text x="${(left + width - right) / 2}" y="${height - 6}" text-anchor="middle">${escapeHtml(options.xLabel)}</text>` +
    `<text x="14" y="${(top + height - bottom) / 2}" text-anchor="middle" transform="rotate(-90 14 ${(top + height - bottom) / 2})">${escapeHtml(options.yLabel)}</text>`;
  const marks = points
    .map(
      (p) =>
        `<circle cx="${px(p.x)}" cy="${py(p.y)}" r="${p.highlight ? 7 : 5}" fill="${p.highlight ? '#e15759' : '#4e79a7'}"><title>${escapeHtml(`${p.label}: ${p.y} tests, ${options.formatX(p.x)}`)}</title></circle>` +
        // Labels of points in the right half go to their left, so long names stay inside the chart.
        (px(p.x) > (left + width - right) / 2
          ? `<text x="${px(p.x) - 10}" y="${py(p.y) + 4}" text-anchor="end">${escapeHtml(p.label)}</text>`
          : `<text x="${px(p.x) + 10}" y="${py(p.y) + 4}">${escapeHtml(p.label)}</text>`),
    )
    .join('');
  return svg(width, height, axes + marks, options.label);
}

export interface TimelineLane {
  label: string;
  turns: { title: string; segments: { color: string }[] }[];
}

/** One lane per scenario, one cell per turn, each cell split among the models that answered it. */
export function routingTimeline(lanes: TimelineLane[], options: { label: string; width?: number }): string {
  const width = options.width ?? 1060;
  const labelWidth = 190;
  const row = 20;
  const maxTurns = Math.max(...lanes.map((l) => l.turns.length), 1);
  const cell = Math.max(2, Math.min(18, (width - labelWidth - 50) / maxTurns));
  const body = lanes
    .map((lane, index) => {
      const y = index * row + 16;
      const cells = lane.turns
        .map((turn, t) => {
          const x = labelWidth + t * cell;
          const segments = turn.segments.length ? turn.segments : [{ color: '#d0d5dd' }];
          const h = 14 / segments.length;
          return `<g><title>${escapeHtml(turn.title)}</title>${segments.map((s, i) => `<rect x="${round(x)}" y="${round(y + i * h)}" width="${round(Math.max(cell - 1, 1))}" height="${round(h)}" fill="${s.color}"/>`).join('')}</g>`;
        })
        .join('');
      return `<text x="${labelWidth - 6}" y="${y + 11}" text-anchor="end">${escapeHtml(lane.label)}</text>${cells}<text x="${round(labelWidth + lane.turns.length * cell + 4)}" y="${y + 11}" class="note">${lane.turns.length}</text>`;
    })
    .join('');
  const axis = `<text x="${labelWidth}" y="10">turn 1 →</text>`;
  return svg(width, lanes.length * row + 20, axis + body, options.label);
}

/** A histogram of values with vertical markers (e.g. the bound, zero, the observed value). */
export function histogram(
  values: ArrayLike<number>,
  options: {
    label: string;
    xLabel: string;
    markers: { value: number; label: string; color: string }[];
    bins?: number;
    width?: number;
    height?: number;
  },
): string {
  const width = options.width ?? 760;
  const height = options.height ?? 260;
  const left = 40;
  const right = 20;
  const top = 28;
  const bottom = 40;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) {
    min = Math.min(min, values[i]!);
    max = Math.max(max, values[i]!);
  }
  for (const m of options.markers) {
    min = Math.min(min, m.value);
    max = Math.max(max, m.value);
  }
  if (!Number.isFinite(min)) return '<p class="note">no values</p>';
  if (max - min < 1e-9) {
    min -= 1;
    max += 1;
  }
  const bins = options.bins ?? 40;
  const counts = new Array<number>(bins).fill(0);
  const binOf = (v: number) => Math.min(bins - 1, Math.floor(((v - min) / (max - min)) * bins));
  for (let i = 0; i < values.length; i++) counts[binOf(values[i]!)]! += 1;
  const peak = Math.max(...counts) || 1;
  const span = width - left - right;
  const px = (v: number) => round(left + ((v - min) / (max - min)) * span);
  const barWidth = span / bins;
  const bars = counts
    .map((c, i) => {
      const h = round((c / peak) * (height - top - bottom));
      const from = min + (i / bins) * (max - min);
      const to = min + ((i + 1) / bins) * (max - min);
      return `<rect x="${round(left + i * barWidth)}" y="${height - bottom - h}" width="${round(Math.max(barWidth - 1, 1))}" height="${h}" fill="#9fb6d3"><title>${escapeHtml(`${from.toFixed(2)} … ${to.toFixed(2)}: ${c} resamples`)}</title></rect>`;
    })
    .join('');
  const markers = options.markers
    .map(
      (m, i) =>
        `<line x1="${px(m.value)}" y1="${top - 4}" x2="${px(m.value)}" y2="${height - bottom}" stroke="${m.color}" stroke-width="2"><title>${escapeHtml(`${m.label}: ${m.value.toFixed(2)}`)}</title></line>` +
        // Near the right edge the label goes left of its line.
        `<text x="${px(m.value) > width - 140 ? px(m.value) - 4 : px(m.value) + 4}" y="${top - 8 + (i % 2) * 12}"${px(m.value) > width - 140 ? ' text-anchor="end"' : ''} style="fill:${m.color}">${escapeHtml(`${m.label} ${m.value.toFixed(2)}`)}</text>`,
    )
    .join('');
  const axis =
    `<line x1="${left}" y1="${height - bottom}" x2="${width - right}" y2="${height - bottom}" stroke="#8892a2"/>` +
    [0, 0.25, 0.5, 0.75, 1]
      .map(
        (t) =>
          `<text x="${px(min + t * (max - min))}" y="${height - bottom + 14}" text-anchor="middle">${(min + t * (max - min)).toFixed(1)}</text>`,
      )
      .join('') +
    `<text x="${left + span / 2}" y="${height - 6}" text-anchor="middle">${escapeHtml(options.xLabel)}</text>`;
  return svg(width, height, bars + axis + markers, options.label);
}

// A step plot of scenarios in flight over time, one line per run (bench/epoch.ts writes it beside its
// figures page): plain SVG, no library.

export interface InFlightSeries {
  label: string;
  /** [seconds since the evaluation started, scenarios in flight] */
  points: [number, number][];
}

const colours = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd'];

export function inFlightSvg(series: InFlightSeries[], title: string): string {
  const width = 720;
  const height = 320;
  const left = 48;
  const bottom = 36;
  const top = 28;
  const right = 16;
  const maxSeconds = Math.max(1, ...series.flatMap((s) => s.points.map(([t]) => t)));
  const maxInFlight = Math.max(1, ...series.flatMap((s) => s.points.map(([, n]) => n)));
  const x = (t: number) => left + (t / maxSeconds) * (width - left - right);
  const y = (n: number) => height - bottom - (n / maxInFlight) * (height - bottom - top);
  const steps = (points: [number, number][]) =>
    points
      .map(([t, n], i) => {
        const previous = points[i - 1];
        return `${previous ? `${x(t).toFixed(1)},${y(previous[1]).toFixed(1)} ` : ''}${x(t).toFixed(1)},${y(n).toFixed(1)}`;
      })
      .join(' ');
  const yTicks = Array.from({ length: maxInFlight + 1 }, (_, n) => n).filter(
    (n) => maxInFlight <= 10 || n % Math.ceil(maxInFlight / 10) === 0,
  );
  const xStep = Math.max(30, Math.ceil(maxSeconds / 8 / 30) * 30);
  const xTicks = Array.from({ length: Math.floor(maxSeconds / xStep) + 1 }, (_, i) => i * xStep);
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    `<text x="${left}" y="16" font-size="13">${escape(title)}</text>`,
    `<line x1="${left}" y1="${y(0)}" x2="${width - right}" y2="${y(0)}" stroke="black"/>`,
    `<line x1="${left}" y1="${top}" x2="${left}" y2="${y(0)}" stroke="black"/>`,
    ...yTicks.map(
      (n) =>
        `<text x="${left - 6}" y="${y(n) + 4}" text-anchor="end">${n}</text>` +
        `<line x1="${left}" y1="${y(n)}" x2="${width - right}" y2="${y(n)}" stroke="#ddd"/>`,
    ),
    ...xTicks.map((t) => `<text x="${x(t)}" y="${height - bottom + 14}" text-anchor="middle">${t}</text>`),
    `<text x="${(left + width - right) / 2}" y="${height - 6}" text-anchor="middle">seconds since the evaluation started</text>`,
    `<text x="12" y="${(top + height - bottom) / 2}" transform="rotate(-90 12 ${(top + height - bottom) / 2})" text-anchor="middle">scenarios in flight</text>`,
    ...series.map(
      (s, i) =>
        `<polyline fill="none" stroke="${colours[i % colours.length]}" stroke-width="1.5" points="${steps(s.points)}"/>` +
        `<text x="${width - right - 4}" y="${top + 14 * (i + 1)}" text-anchor="end" fill="${colours[i % colours.length]}">${escape(s.label)}</text>`,
    ),
    '</svg>',
    '',
  ].join('\n');
}

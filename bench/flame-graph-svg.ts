// A flame graph of a call tree (bench/cpu-profile-tree.ts) as one self-contained SVG: the root at
// the bottom, each frame as wide as its share of the time, callers under callees. Hovering a box
// shows its function, place, and times (an SVG <title>); the colour says where the code lives.
import { escapeHtml } from '../cli/report/html-page.ts';
import type { Frame, FrameCategory } from './cpu-profile-tree.ts';

export interface FlameGraphOptions {
  title: string;
  widthPx?: number;
  /** Boxes narrower than this are not drawn (their time still widens their callers). */
  minWidthPx?: number;
}

const rowPx = 17;
const fontPx = 11;
/** An average glyph of an 11 px monospace font, for fitting labels into boxes. */
const glyphPx = 6.6;
const marginPx = 10;
const headerPx = 44;

const colours: Record<FrameCategory, [hue: number, saturation: number, lightness: number]> = {
  project: [12, 78, 60],
  dependency: [36, 85, 58],
  node: [205, 45, 65],
  engine: [0, 0, 72],
};

/** Small shifts of lightness by name, so neighbouring boxes of one category stay apart. */
function colourOf(frame: Frame): string {
  const [hue, saturation, lightness] = colours[frame.category];
  let hash = 0;
  for (let i = 0; i < frame.name.length; i++) hash = (hash * 31 + frame.name.charCodeAt(i)) >>> 0;
  return `hsl(${hue + (hash % 11) - 5},${saturation}%,${lightness + (hash % 9) - 4}%)`;
}

function depthOf(root: Frame): number {
  let deepest = 0;
  const stack: [Frame, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [frame, depth] = stack.pop()!;
    deepest = Math.max(deepest, depth);
    for (const child of frame.children) stack.push([child, depth + 1]);
  }
  return deepest;
}

export function flameGraphSvg(root: Frame, options: FlameGraphOptions): string {
  const widthPx = options.widthPx ?? 1200;
  const minWidthPx = options.minWidthPx ?? 0.3;
  const innerPx = widthPx - 2 * marginPx;
  const heightPx = headerPx + depthOf(root) * rowPx + marginPx;
  const scale = root.totalMs > 0 ? innerPx / root.totalMs : 0;
  const boxes: string[] = [];
  const stack: { frame: Frame; xPx: number; depth: number }[] = [{ frame: root, xPx: marginPx, depth: 0 }];
  while (stack.length > 0) {
    const { frame, xPx, depth } = stack.pop()!;
    const boxPx = frame.totalMs * scale;
    if (boxPx < minWidthPx) continue;
    const yPx = heightPx - marginPx - (depth + 1) * rowPx;
    const share = root.totalMs > 0 ? (100 * frame.totalMs) / root.totalMs : 0;
    const where = frame.location ? ` ${frame.location}` : '';
    const tip = `${frame.name}${where}: ${frame.totalMs.toFixed(1)} ms (${share.toFixed(1)} %), own ${frame.selfMs.toFixed(1)} ms`;
    const fits = Math.floor((boxPx - 6) / glyphPx);
    const label = fits >= 3 ? (frame.name.length <= fits ? frame.name : `${frame.name.slice(0, fits - 2)}..`) : '';
    boxes.push(
      `<g><title>${escapeHtml(tip)}</title><rect x="${xPx.toFixed(2)}" y="${yPx}" width="${boxPx.toFixed(2)}" height="${rowPx - 1}" rx="2" fill="${colourOf(frame)}"/>` +
        (label ? `<text x="${(xPx + 3).toFixed(2)}" y="${yPx + rowPx - 5}">${escapeHtml(label)}</text>` : '') +
        '</g>',
    );
    let childX = xPx;
    for (const child of frame.children) {
      stack.push({ frame: child, xPx: childX, depth: depth + 1 });
      childX += child.totalMs * scale;
    }
  }
  const legend = (Object.keys(colours) as FrameCategory[])
    .map((category, i) => {
      const [hue, saturation, lightness] = colours[category];
      const x = marginPx + i * 120;
      return `<rect x="${x}" y="26" width="10" height="10" fill="hsl(${hue},${saturation}%,${lightness}%)"/><text x="${x + 14}" y="35">${category}</text>`;
    })
    .join('');
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${widthPx}" height="${heightPx}" viewBox="0 0 ${widthPx} ${heightPx}" font-family="monospace" font-size="${fontPx}">`,
    `<rect width="100%" height="100%" fill="#fdfdf8"/>`,
    `<text x="${marginPx}" y="17" font-size="13">${escapeHtml(options.title)} (${root.totalMs.toFixed(0)} ms)</text>`,
    legend,
    ...boxes,
    '</svg>',
    '',
  ].join('\n');
}

// How pack files travel to the judge as data: each file between a BEGIN and an END marker that carry a
// boundary derived from the pack hash. A pack cannot contain its own boundary (writing it would change
// the hash it comes from), and lookalikes of the marker are neutralised before rendering, so text in
// the pack can never close the data block early and speak as the prompt.
import { createHash } from 'node:crypto';
import type { CanonicalPack } from '../packs/canonical-pack.ts';

export const boundaryPrefix = 'TRL-PACK-DATA';
/** What a lookalike of the boundary becomes inside pack text: no longer contains the prefix. */
export const neutralisedDelimiter = '[neutralised-delimiter]';

const boundaryPattern = new RegExp(`${boundaryPrefix}-[0-9a-f]{32}`);
// Separators a lookalike might use between the words: spaces, underscores, dashes of every kind, zero-width characters.
const lookalikePattern = new RegExp(
  boundaryPrefix.split('-').join('[\\s_\\-\\u2010-\\u2015\\u2212\\u200b-\\u200d\\u2060\\ufeff]*'),
  'gi',
);

/** The per-pack boundary: deterministic, random-looking, and unknowable to the pack's author in advance. */
export function boundaryFor(packHash: string): string {
  return `${boundaryPrefix}-${createHash('sha256').update(`trl-judge-boundary/1:${packHash}`).digest('hex').slice(0, 32)}`;
}

export function isBoundary(text: string): boolean {
  return new RegExp(`^${boundaryPattern.source}$`).test(text);
}

/** Pack text with every spelling of the boundary prefix (any case, spaced, other dashes) replaced. */
export function neutraliseDelimiters(text: string): string {
  return text.replace(lookalikePattern, neutralisedDelimiter);
}

export function beginMarker(boundary: string, file: string): string {
  return `<<<${boundary} BEGIN file=${JSON.stringify(neutraliseDelimiters(file))}>>>`;
}

export function endMarker(boundary: string, file: string): string {
  return `<<<${boundary} END file=${JSON.stringify(neutraliseDelimiters(file))}>>>`;
}

export interface PackFileText {
  path: string;
  /** The file as the pack holds it. */
  text: string;
  /** The file as the judge sees it, lookalike delimiters neutralised. */
  rendered: string;
}

/** The pack's files in judge order: every file by path. */
export function packFileTexts(pack: CanonicalPack): PackFileText[] {
  const entries: [string, string][] = [];
  for (const filePath of Object.keys(pack.files).sort()) entries.push([filePath, pack.files[filePath]!]);
  return entries.map(([path, text]) => ({ path, text, rendered: neutraliseDelimiters(text) }));
}

/** Every file as a delimited block, labelled with its path. */
export function renderDelimitedFiles(files: readonly PackFileText[], boundary: string): string {
  return files
    .map((file) => `${beginMarker(boundary, file.path)}\n${file.rendered}\n${endMarker(boundary, file.path)}`)
    .join('\n\n');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The inverse of renderDelimitedFiles, for readers of the prompt (the sim fleet's judge): only real markers count. */
export function parseDelimitedFiles(text: string, boundary: string): { path: string; text: string }[] {
  const b = escapeRegExp(boundary);
  const block = new RegExp(
    `<<<${b} BEGIN file=("(?:[^"\\\\\\n]|\\\\.)*")>>>\\n([\\s\\S]*?)\\n<<<${b} END file=\\1>>>`,
    'g',
  );
  const files: { path: string; text: string }[] = [];
  for (const match of text.matchAll(block)) {
    let path: string;
    try {
      path = JSON.parse(match[1]!) as string;
    } catch {
      continue;
    }
    files.push({ path, text: match[2]! });
  }
  return files;
}

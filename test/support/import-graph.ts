// The project's import graph, read from the source text: files and their relative imports, rolled
// up into rooms (top-level folders). Used by the layout test and printable on its own:
//   node --import tsx test/support/import-graph.ts
// Test files are left out (they are leaves that may reach into any room); test helpers are in.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const skipped = new Set(['node_modules', '.cache', '.data', '.git', 'scenarios', 'fixtures', 'examples']);
const sourcePattern = /\.(ts|mts|mjs|js)$/;
const importPattern =
  /(?:^|[\s;])(?:import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

export interface ImportEdge {
  from: string;
  to: string;
  typeOnly: boolean;
}

export interface ImportGraph {
  files: string[];
  edges: ImportEdge[];
}

function listSources(root: string, dir = ''): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    if (entry.name.startsWith('.') && entry.name !== '.') continue;
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!skipped.has(entry.name)) found.push(...listSources(root, relative));
    } else if (sourcePattern.test(entry.name) && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) {
      found.push(relative);
    }
  }
  return found;
}

export function readImportGraph(root: string): ImportGraph {
  const files = listSources(root).sort();
  const known = new Set(files);
  const edges: ImportEdge[] = [];
  for (const file of files) {
    const text = readFileSync(path.join(root, file), 'utf8');
    for (const match of text.matchAll(importPattern)) {
      const specifier = match[2] ?? match[3]!;
      const target = path.normalize(path.join(path.dirname(file), specifier));
      if (known.has(target)) edges.push({ from: file, to: target, typeOnly: Boolean(match[1]) });
    }
  }
  return { files, edges };
}

export function roomOf(file: string): string {
  return file.includes('/') ? file.slice(0, file.indexOf('/')) : '.';
}

/** Strongly connected components with more than one member (Tarjan), each sorted. */
export function cycles(nodes: readonly string[], edges: readonly [string, string][]): string[][] {
  const next = new Map<string, string[]>(nodes.map((node) => [node, []]));
  for (const [from, to] of edges) if (from !== to) next.get(from)?.push(to);
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of nodes) if (!index.has(node)) visit(node);
  return found;
}

export function roomEdges(graph: ImportGraph): [string, string][] {
  const seen = new Set<string>();
  const edges: [string, string][] = [];
  for (const edge of graph.edges) {
    const from = roomOf(edge.from);
    const to = roomOf(edge.to);
    if (from === to || seen.has(`${from}>${to}`)) continue;
    seen.add(`${from}>${to}`);
    edges.push([from, to]);
  }
  return edges;
}

/** The longest chain of rooms reachable from `start` (the room graph must have no cycle). */
export function longestRoomChain(graph: ImportGraph, start: string): string[] {
  const next = new Map<string, string[]>();
  for (const [from, to] of roomEdges(graph)) next.set(from, [...(next.get(from) ?? []), to]);
  const memo = new Map<string, string[]>();
  const walk = (room: string, path: Set<string>): string[] => {
    if (memo.has(room)) return memo.get(room)!;
    let best: string[] = [];
    for (const target of next.get(room) ?? []) {
      if (path.has(target)) continue;
      const chain = walk(target, new Set([...path, target]));
      if (chain.length > best.length) best = chain;
    }
    const result = [room, ...best];
    memo.set(room, result);
    return result;
  };
  return walk(start, new Set([start]));
}

function main(): void {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
  const graph = readImportGraph(root);
  const rooms = [
    ...new Set(
      readdirSync(root, { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'node_modules')
        .map((entry) => entry.name),
    ),
  ].sort();
  const roomCycles = cycles(rooms, roomEdges(graph));
  const fileCycles = cycles(
    graph.files,
    graph.edges.map((edge) => [edge.from, edge.to]),
  );
  process.stdout.write(`top-level folders: ${rooms.length} (${rooms.join(', ')})\n`);
  process.stdout.write(`source files: ${graph.files.length}, imports: ${graph.edges.length}\n`);
  process.stdout.write(
    `folder-level import cycles: ${roomCycles.length}${roomCycles.map((c) => `\n  {${c.join(', ')}}`).join('')}\n`,
  );
  process.stdout.write(
    `file-level import cycles: ${fileCycles.length}${fileCycles.map((c) => `\n  {${c.join(', ')}}`).join('')}\n`,
  );
  if (roomCycles.length === 0)
    process.stdout.write(`longest import chain from cli/: ${longestRoomChain(graph, 'cli').join(' → ')}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();

// The call tree of V8 CPU profiles (`node --cpu-prof` writes one `.cpuprofile` per thread): each
// frame's own time and its time with everything it called, in milliseconds, for the flame graph
// and its text view (bench/flame-graph.ts). Pure: profiles in, tree out.
import { z } from 'zod';

const callFrameSchema = z.object({
  functionName: z.string(),
  url: z.string(),
  lineNumber: z.number().int(),
});

/** The part of the `.cpuprofile` format the tree needs; anything else in the file is ignored. */
export const cpuProfileSchema = z
  .object({
    nodes: z
      .array(
        z.object({
          id: z.number().int(),
          callFrame: callFrameSchema,
          children: z.array(z.number().int()).optional(),
        }),
      )
      .min(1, 'a profile has at least its root node'),
    samples: z.array(z.number().int()),
    timeDeltas: z.array(z.number()),
  })
  .refine((profile) => profile.samples.length === profile.timeDeltas.length, {
    message: 'samples and timeDeltas must have the same length (one time delta per sample)',
    path: ['timeDeltas'],
  });
export type CpuProfile = z.infer<typeof cpuProfileSchema>;

/** Where a frame's code lives: the colour of its box and the group of its time. */
export type FrameCategory = 'project' | 'dependency' | 'node' | 'engine';

export interface Frame {
  name: string;
  /** `file:line` for code (`file` when the profile has no line), empty for the engine's own entries ((garbage
   * collector), (program)). */
  location: string;
  category: FrameCategory;
  selfMs: number;
  totalMs: number;
  children: Frame[];
}

export interface TreeOptions {
  /** Root the tree at every outermost frame of this function name instead of at the program's root. */
  focus?: string;
  /** Keep `(idle)`: time the thread spent waiting, which is not CPU. */
  keepIdle?: boolean;
}

function categoryOf(url: string): FrameCategory {
  if (url === '') return 'engine';
  if (url.startsWith('node:')) return 'node';
  if (url.includes('/node_modules/')) return 'dependency';
  return 'project';
}

/** A readable place: the package and file for a dependency, the path under the project otherwise. */
function locationOf(url: string, lineNumber: number): string {
  if (url === '') return '';
  const file = url.replace(/^file:\/\//, '');
  const dependency = file.lastIndexOf('/node_modules/');
  const short =
    dependency >= 0 ? file.slice(dependency + '/node_modules/'.length) : file.split('/').slice(-2).join('/');
  // V8's line numbers count from 0; code transpiled on the fly (tsx) reports every function on the
  // first line, which says nothing, so that line is left out.
  return lineNumber > 0 ? `${short}:${lineNumber + 1}` : short;
}

function emptyFrame(name: string, location: string, category: FrameCategory): Frame {
  return { name, location, category, selfMs: 0, totalMs: 0, children: [] };
}

/** The child of `parent` for this frame, merged with an earlier one of the same function and place. */
function childFor(
  parent: Frame,
  index: Map<Frame, Map<string, Frame>>,
  name: string,
  location: string,
  category: FrameCategory,
): Frame {
  let byKey = index.get(parent);
  if (!byKey) index.set(parent, (byKey = new Map()));
  const key = `${name}\u0000${location}`;
  let child = byKey.get(key);
  if (!child) {
    child = emptyFrame(name, location, category);
    byKey.set(key, child);
    parent.children.push(child);
  }
  return child;
}

/**
 * Adds one profile under `root`: each node's sampled time becomes the self time of its frame, and
 * the totals are summed on the way back up. Iterative, with each node visited once, so a profile
 * with cycles or shared children cannot loop or blow the stack.
 */
function addProfile(
  root: Frame,
  profile: CpuProfile,
  options: TreeOptions,
  index: Map<Frame, Map<string, Frame>>,
): void {
  const selfMsById = new Map<number, number>();
  profile.samples.forEach((id, i) =>
    selfMsById.set(id, (selfMsById.get(id) ?? 0) + Math.max(0, profile.timeDeltas[i]!) / 1000),
  );
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const childIds = new Set(profile.nodes.flatMap((node) => node.children ?? []));
  const programRoot = profile.nodes.find((node) => !childIds.has(node.id)) ?? profile.nodes[0]!;
  const visited = new Set<number>();
  // Each entry: a profile node and the frame it is added to (undefined: outside the focus, not kept).
  const stack: { id: number; parent: Frame | undefined }[] = [];
  for (const id of programRoot.children ?? [])
    stack.push({ id, parent: options.focus === undefined ? root : undefined });
  while (stack.length > 0) {
    const { id, parent } = stack.pop()!;
    const node = byId.get(id);
    if (!node || visited.has(id)) continue;
    visited.add(id);
    const { functionName, url, lineNumber } = node.callFrame;
    const name = functionName === '' ? '(anonymous)' : functionName;
    if (name === '(idle)' && !options.keepIdle) continue;
    let target = parent;
    if (target) target = childFor(target, index, name, locationOf(url, lineNumber), categoryOf(url));
    else if (name === options.focus) target = childFor(root, index, name, locationOf(url, lineNumber), categoryOf(url));
    if (target) target.selfMs += selfMsById.get(id) ?? 0;
    for (const child of node.children ?? []) stack.push({ id: child, parent: target });
  }
}

/** Totals from the leaves up, and children widest first. */
function settle(frame: Frame): void {
  const order: Frame[] = [];
  const stack = [frame];
  while (stack.length > 0) {
    const next = stack.pop()!;
    order.push(next);
    stack.push(...next.children);
  }
  for (const each of order.reverse()) {
    each.totalMs = each.selfMs + each.children.reduce((sum, child) => sum + child.totalMs, 0);
    each.children.sort((a, b) => b.totalMs - a.totalMs);
  }
}

/**
 * One tree for one or more profiles. With one profile its frames hang from the root; with several
 * (the threads of one process) each hangs under a frame named by its label.
 */
export function callTree(
  profiles: readonly { label: string; profile: CpuProfile }[],
  options: TreeOptions = {},
): Frame {
  const root = emptyFrame(options.focus === undefined ? 'all' : `all ${options.focus}`, '', 'engine');
  const index = new Map<Frame, Map<string, Frame>>();
  for (const { label, profile } of profiles) {
    const under = profiles.length === 1 ? root : childFor(root, index, label, '', 'engine');
    addProfile(under, profile, options, index);
  }
  settle(root);
  return root;
}

/** Self time summed by function (and place) over the whole tree, largest first: the "where" list. */
export function selfTimeByFunction(root: Frame): { name: string; location: string; selfMs: number }[] {
  const sums = new Map<string, { name: string; location: string; selfMs: number }>();
  const stack = [root];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    stack.push(...frame.children);
    if (frame.selfMs === 0) continue;
    const key = `${frame.name}\u0000${frame.location}`;
    const entry = sums.get(key) ?? { name: frame.name, location: frame.location, selfMs: 0 };
    entry.selfMs += frame.selfMs;
    sums.set(key, entry);
  }
  return [...sums.values()].sort((a, b) => b.selfMs - a.selfMs);
}

/**
 * Self time of a V8 CPU profile (the `.cpuprofile` that `node --cpu-prof` writes), summed by where the code comes
 * from: a package under node_modules, Node.js's own modules, a folder of the service's source, or V8's pseudo-frames
 * (garbage collector, program, idle).
 */
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

interface CallFrame {
  functionName: string;
  url: string;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  hitCount?: number;
  children?: number[];
}

/** The parts of the format read here; times are µs on V8's monotonic clock. */
export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

export interface GroupTime {
  group: string;
  ms: number;
  /** Of the busy time. */
  percent: number;
}

export interface ProfileSummary {
  /** Sampled time in the window, idle excluded. */
  busyMs: number;
  idleMs: number;
  /** The window actually summed: the one asked for, or the whole profile when it had no timed samples. */
  fromUs: number;
  toUs: number;
  samples: number;
  /** Every group, most time first. */
  groups: GroupTime[];
  /** Frames without a script (C++ bindings and V8 built-ins), by name and the group of the code that called them. */
  native: Array<GroupTime & { caller: string }>;
}

/** Sampled while the thread waited for work: not part of the busy time. */
const IDLE = '(idle)';
/** V8's pseudo-frames, each a group of its own. */
const PSEUDO_FRAMES = new Set(['(garbage collector)', '(program)', '(root)', IDLE]);

/**
 * The group of a script: `node_modules/<package>` (scoped: `@scope/name`), `node (internal)` for Node.js's own
 * modules, `src/<folder>/<subfolder>` for the service's code (compiled to dist/src, named after its source), a path
 * relative to `root` for other files of the repository; undefined for a frame without a script.
 */
export function groupOfUrl(url: string, root: string): string | undefined {
  if (url === '') return undefined;
  if (url.startsWith('node:')) return 'node (internal)';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const [first, second] = url.slice(modules + 'node_modules/'.length).split('/');
    return `node_modules/${first.startsWith('@') ? `${first}/${second}` : first}`;
  }
  if (!url.startsWith('file:')) return url;
  const path = relative(root, fileURLToPath(url)).split(sep);
  if (path[0] === '..') return url;
  if (path[0] === 'dist') path.shift();
  // Folders only: a file straight in src/ or in a top folder counts for that folder.
  return path.slice(0, Math.min(3, path.length - 1)).join('/') || path.join('/');
}

/**
 * Sums the self time of every sample taken in [fromUs, toUs) (on the profile's clock; the whole profile when
 * omitted) by group. Frames without a script are grouped as `(native) ← <caller>`, the group of the nearest frame
 * up the stack that has one, so that a binding's time (a socket write, a SQLite statement) stays apart from the
 * JavaScript around it yet says who asked for it.
 */
export function summarize(profile: CpuProfile, root: string, fromUs = -Infinity, toUs = Infinity): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  const groupOfNode = new Map<number, { group: string; caller?: string; name: string }>();
  const describe = (id: number) => {
    let known = groupOfNode.get(id);
    if (known) return known;
    const { callFrame } = byId.get(id)!;
    const name = callFrame.functionName || '(anonymous)';
    const group = groupOfUrl(callFrame.url, root);
    if (group !== undefined) known = { group, name };
    else if (PSEUDO_FRAMES.has(callFrame.functionName)) known = { group: callFrame.functionName, name };
    else {
      let caller: string | undefined;
      for (let up = parent.get(id); up !== undefined && caller === undefined; up = parent.get(up)) {
        caller = groupOfUrl(byId.get(up)!.callFrame.url, root);
      }
      caller ??= '(no script)';
      known = { group: `(native) ← ${caller}`, caller, name };
    }
    groupOfNode.set(id, known);
    return known;
  };

  // Each sample's time: until the next sample, the last one until the profile's end (as Chrome's DevTools count).
  const timed: Array<{ id: number; at: number; us: number }> = [];
  const { samples, timeDeltas } = profile;
  let windowFrom = fromUs;
  let windowTo = toUs;
  if (samples && timeDeltas && samples.length === timeDeltas.length && samples.length > 0) {
    let at = profile.startTime;
    const stamps = timeDeltas.map((delta) => (at += delta));
    samples.forEach((id, i) => {
      const next = i + 1 < stamps.length ? stamps[i + 1] : profile.endTime;
      timed.push({ id, at: stamps[i], us: Math.max(0, next - stamps[i]) });
    });
  } else {
    // Counts only: spread the profile's length over them evenly; no window can be told apart.
    const hits = profile.nodes.reduce((sum, node) => sum + (node.hitCount ?? 0), 0);
    const each = hits > 0 ? (profile.endTime - profile.startTime) / hits : 0;
    for (const node of profile.nodes) {
      if (node.hitCount) timed.push({ id: node.id, at: profile.startTime, us: node.hitCount * each });
    }
    windowFrom = -Infinity;
    windowTo = Infinity;
  }

  const groupUs = new Map<string, number>();
  const nativeUs = new Map<string, { name: string; caller: string; us: number }>();
  let count = 0;
  for (const { id, at, us } of timed) {
    if (at < windowFrom || at >= windowTo) continue;
    count++;
    const { group, caller, name } = describe(id);
    groupUs.set(group, (groupUs.get(group) ?? 0) + us);
    if (caller !== undefined) {
      const key = `${name}\u0000${caller}`;
      const entry = nativeUs.get(key) ?? { name, caller, us: 0 };
      entry.us += us;
      nativeUs.set(key, entry);
    }
  }
  const idleUs = groupUs.get(IDLE) ?? 0;
  groupUs.delete(IDLE);
  const busyUs = [...groupUs.values()].reduce((sum, us) => sum + us, 0);
  const percent = (us: number) => (busyUs > 0 ? (100 * us) / busyUs : 0);
  return {
    busyMs: busyUs / 1000,
    idleMs: idleUs / 1000,
    fromUs: Number.isFinite(windowFrom) ? windowFrom : profile.startTime,
    toUs: Number.isFinite(windowTo) ? windowTo : profile.endTime,
    samples: count,
    groups: [...groupUs]
      .map(([group, us]) => ({ group, ms: us / 1000, percent: percent(us) }))
      .sort((a, b) => b.ms - a.ms),
    native: [...nativeUs.values()]
      .map(({ name, caller, us }) => ({ group: name, caller, ms: us / 1000, percent: percent(us) }))
      .sort((a, b) => b.ms - a.ms),
  };
}

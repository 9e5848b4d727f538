import { Session } from 'node:inspector/promises';

/**
 * V8's sampling CPU profiler through the inspector, in this process (the service under
 * load runs in the bench process; the load generator runs in a child, so it is not in
 * the profile). Summaries attribute each sample's self time to one group (a package of
 * node_modules, or a folder of this repository) and to one function.
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export async function profileWhile<T>(work: () => Promise<T>): Promise<{ result: T; profile: CpuProfile }> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 500 });
  await session.post('Profiler.start');
  try {
    const result = await work();
    const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: CpuProfile };
    return { result, profile };
  } finally {
    session.disconnect();
  }
}

/** Idle, GC and the program's own root: not work of the service. */
const NOT_BUSY = new Set(['(idle)', '(program)', '(root)']);

/** The group of a function: a package under node_modules, a folder of this repository, node itself. */
export function groupOf(url: string, functionName: string): string {
  if (functionName === '(garbage collector)') return 'garbage collection';
  if (!url) return 'V8 and native code';
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1]!;
  if (url.startsWith('node:')) return 'node: built-in modules';
  const own = /\/(services|shared|projections|bench)\/([^/]+)/.exec(url);
  if (own) return own[1] === 'bench' ? 'bench (load only)' : `${own[1]}/${own[2]}`;
  return 'other';
}

export interface ProfileSummary {
  busyMs: number;
  totalMs: number;
  groups: { name: string; ms: number; share: number }[];
  functions: { name: string; ms: number; share: number }[];
}

export function summarize(profile: CpuProfile, top = 12): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, index) =>
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)),
  );
  const groups = new Map<string, number>();
  const functions = new Map<string, number>();
  let busy = 0;
  let total = 0;
  for (const [id, micros] of self) {
    const frame = byId.get(id)!.callFrame;
    total += micros;
    if (NOT_BUSY.has(frame.functionName)) continue;
    busy += micros;
    const group = groupOf(frame.url, frame.functionName);
    groups.set(group, (groups.get(group) ?? 0) + micros);
    // Paths from the package or from the checkout's root, wherever the checkout is.
    const file = frame.url.replace(/^.*\/node_modules\//, '').replace(`file://${process.cwd()}/`, '');
    const name =
      `${frame.functionName || '(anonymous)'} ${file ? `${file}:${frame.lineNumber + 1}` : ''}`.trim();
    functions.set(name, (functions.get(name) ?? 0) + micros);
  }
  const ranked = (entries: Map<string, number>) =>
    [...entries]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, micros]) => ({ name, ms: micros / 1000, share: micros / busy }));
  return { busyMs: busy / 1000, totalMs: total / 1000, groups: ranked(groups), functions: ranked(functions) };
}

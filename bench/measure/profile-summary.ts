import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

/** The functions with the most self time in a `.cpuprofile`, as "share  name (file:line)". */
export function topSelfTime(file: string, count = 8): { share: number; name: string }[] {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[] };
  const byName = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') continue;
    total += hits;
    const where = url ? ` (${shorten(url)}:${lineNumber + 1})` : '';
    const name = `${functionName || '(anonymous)'}${where}`;
    byName.set(name, (byName.get(name) ?? 0) + hits);
  }
  return [...byName]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, hits]) => ({ share: total > 0 ? hits / total : 0, name }));
}

function shorten(url: string): string {
  const path = url.replace(/^file:\/\//, '');
  const modules = path.lastIndexOf('node_modules/');
  if (modules >= 0) return path.slice(modules + 'node_modules/'.length);
  return path.startsWith('/') ? relative(process.cwd(), path) : path;
}

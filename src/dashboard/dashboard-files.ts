import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * The built dashboard (`npm run build` → `dist/dashboard/`). Found from the package root,
 * so the compiled app (`dist/src/dashboard`) and the TypeScript sources under test
 * (`src/dashboard`) serve the same files. Nothing is read at start-up: a dashboard built or
 * rebuilt while the service runs is served at once.
 */
export class DashboardFiles {
  /** Where `scripts/build-dashboard.mjs` writes: `dist/dashboard/` beside package.json. */
  static builtDirectory(): string {
    return join(packageRoot(__dirname), 'dist', 'dashboard');
  }

  readonly root = DashboardFiles.builtDirectory();
  readonly assets = join(this.root, 'assets');

  /** The page, or null before the dashboard was built. Read per request: it is tiny. */
  async indexHtml(): Promise<string | null> {
    return readFile(join(this.root, 'index.html'), 'utf8').catch(() => null);
  }
}

function packageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

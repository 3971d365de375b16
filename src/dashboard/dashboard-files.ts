import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * The built dashboard (`npm run build` → `dist/dashboard/`). Found from the package root,
 * so the compiled app (`dist/src/dashboard`) and the TypeScript sources under test
 * (`src/dashboard`) serve the same files.
 */
export class DashboardFiles {
  readonly root = join(packageRoot(__dirname), 'dist', 'dashboard');
  readonly assets = join(this.root, 'assets');

  get built(): boolean {
    return existsSync(join(this.root, 'index.html'));
  }

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

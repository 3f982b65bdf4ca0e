import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
};

export interface StaticFile {
  body: Buffer;
  type: string;
  /** Vite names assets by content hash: they never change, so browsers keep them. */
  immutable: boolean;
}

/** The repository root (holding package.json), from this file in src/ or in dist/src/. */
function repositoryRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) return process.cwd();
    dir = up;
  }
  return dir;
}

export const DASHBOARD_BUILD_DIR = join(repositoryRoot(), 'dist', 'dashboard');

/**
 * The built single-page app (`npm run build` writes it to dist/dashboard),
 * read into memory once: a handful of small files, served by exact name, so
 * no request path ever reaches the file system. Null when it is not built.
 */
export function loadDashboardBuild(dir = DASHBOARD_BUILD_DIR): Map<string, StaticFile> | null {
  if (!existsSync(join(dir, 'index.html'))) return null;
  const files = new Map<string, StaticFile>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else {
        const rel = relative(dir, full).split(sep).join('/');
        files.set(rel, { body: readFileSync(full), type: TYPES[extname(name)] ?? 'application/octet-stream', immutable: rel.startsWith('assets/') });
      }
    }
  };
  walk(dir);
  return files;
}

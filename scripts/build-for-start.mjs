#!/usr/bin/env node
/**
 * `npm start`'s build: only what is out of date, and fast.
 *
 * - The service: every `src/**\/*.ts` whose `dist/src/**\/*.js` is missing or
 *   older than it is transpiled with TypeScript's own `transpileModule`
 *   (the options of tsconfig.build.json, no type checking), into the files
 *   and source maps `tsc -p tsconfig.build.json` writes (byte for byte);
 *   `.json` files under src/ are written as tsc writes them; a `.js` whose
 *   source is gone is removed. Type checking stays with `npm run typecheck`
 *   and `npm run build`.
 * - The dashboard: `vite build` runs (in a child process, alongside the
 *   transpiling) only when dist/dashboard/index.html is missing or older than
 *   a file or directory under dashboard/ or package-lock.json.
 *
 * Many files to transpile (a fresh clone): a worker thread takes half.
 * Nothing out of date: TypeScript and Vite are not even loaded.
 * `--check` prints what would be built and exits 1 when anything would.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const srcDir = join(root, 'src');
const outDir = join(root, 'dist');
const dashboardDir = join(root, 'dashboard');
const dashboardIndex = join(outDir, 'dashboard', 'index.html');
const checkOnly = process.argv.includes('--check');

/** Every file under `dir`, recursively (and the directories too, with `dirs`). */
function walk(dir, out = [], dirs = false) {
  if (dirs) out.push(dir);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out, dirs);
    else out.push(path);
  }
  return out;
}

const mtime = (path) => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -1;
  }
};

/** The output tsc writes for a source under src/ (rootDir is the repository). */
const outputOf = (source) => join(outDir, relative(root, source)).replace(/\.ts$/, '.js');

/** Sources whose output is missing or older, and outputs whose source is gone. */
function staleService() {
  const sources = walk(srcDir).filter((f) => (f.endsWith('.ts') && !f.endsWith('.d.ts')) || f.endsWith('.json'));
  const stale = sources.filter((f) => mtime(outputOf(f)) < mtime(f));
  const expected = new Set(sources.map(outputOf));
  const outSrc = join(outDir, 'src');
  const orphans = existsSync(outSrc)
    ? walk(outSrc).filter((f) => {
        const js = f.endsWith('.js.map') ? f.slice(0, -'.map'.length) : f;
        return js.endsWith('.js') && !expected.has(js);
      })
    : [];
  return { stale, orphans };
}

function dashboardIsStale() {
  const built = mtime(dashboardIndex);
  if (built < 0) return true;
  // Directories too: a file deleted or renamed changes its directory's mtime.
  return [...walk(dashboardDir, [], true), join(root, 'package-lock.json')].some((f) => mtime(f) > built);
}

/** Transpiles `sources` as tsc would emit them (same options, file layout and source maps). */
function transpile(sources) {
  const require = createRequire(import.meta.url);
  const ts = require('typescript');
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.build.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  const compilerOptions = { ...parsed.options, noEmit: false, declaration: false, incremental: false, composite: false };
  for (const source of sources) {
    const out = outputOf(source);
    mkdirSync(dirname(out), { recursive: true });
    if (source.endsWith('.json')) {
      // tsc writes an imported JSON file re-printed with 4-space indents.
      writeFileSync(out, `${JSON.stringify(JSON.parse(readFileSync(source, 'utf8')), null, 4)}\n`);
      continue;
    }
    const { outputText, sourceMapText } = ts.transpileModule(readFileSync(source, 'utf8'), { compilerOptions, fileName: source });
    if (sourceMapText) {
      // tsc names the source relative to the map, with forward slashes.
      const map = JSON.parse(sourceMapText);
      map.file = out.slice(dirname(out).length + 1);
      map.sourceRoot = '';
      map.sources = [relative(dirname(out), source).split(sep).join('/')];
      writeFileSync(`${out}.map`, JSON.stringify(map));
    }
    writeFileSync(out, outputText);
  }
}

function buildDashboard() {
  return new Promise((resolve, reject) => {
    const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
    const child = spawn(process.execPath, [vite, 'build', '--config', join('dashboard', 'vite.config.ts'), '--logLevel', 'warn'], {
      cwd: root,
      stdio: 'inherit',
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`vite build failed (${signal ?? `exit ${code}`})`))));
  });
}

/** Transpiles `files`, half of them in a worker thread when there are enough to pay for its start. */
async function transpileAll(files) {
  if (files.length < 60) return transpile(files);
  const half = Math.ceil(files.length / 2);
  const worker = new Worker(fileURLToPath(import.meta.url), { workerData: { files: files.slice(half) } });
  const done = new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`transpile worker exited with ${code}`))));
  });
  transpile(files.slice(0, half));
  await done;
}

/** Builds what is out of date (or, with --check, says what is). */
async function main() {
  const { stale, orphans } = staleService();
  const dashboard = dashboardIsStale();
  if (checkOnly) {
    process.stdout.write(`service: ${stale.length} to transpile, ${orphans.length} to remove; dashboard: ${dashboard ? 'to build' : 'up to date'}\n`);
    process.exitCode = stale.length + orphans.length > 0 || dashboard ? 1 : 0;
    return;
  }
  const started = Date.now();
  // Vite runs in its own process while this one transpiles; its failure is reported once the transpiling is done.
  const dashboardBuilt = dashboard ? buildDashboard() : Promise.resolve();
  dashboardBuilt.catch(() => undefined);
  if (stale.length > 0) await transpileAll(stale);
  for (const f of orphans) rmSync(f, { force: true });
  await dashboardBuilt;
  if (stale.length > 0 || orphans.length > 0 || dashboard) {
    const what = [
      stale.length > 0 && `${stale.length} files transpiled`,
      orphans.length > 0 && `${orphans.length} stale outputs removed`,
      dashboard && 'dashboard built',
    ]
      .filter(Boolean)
      .join(', ');
    process.stderr.write(`build: ${what} in ${Date.now() - started} ms\n`);
  }
}

if (isMainThread) {
  await main();
} else {
  transpile(workerData.files);
  parentPort.postMessage('done');
}

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The layers of docs/architecture.md ("Layers"): each entry of src/ and the
 * entries of src/ it may import. `npm run lint` fails on any other import of
 * src/, type-only imports included (a type is a dependency on its layer
 * too); packages and files outside src/ are not layers. '*': the composition
 * root, which may import everything.
 */
const FRONT_DOOR = ['src/app', 'src/domain', 'src/http', 'src/logger.ts', 'src/metrics.ts'];
export const LAYERS = {
  'src/domain': [],
  'src/ports': ['src/domain'],
  'src/app': ['src/domain', 'src/ports', 'src/engine/planning.ts', 'src/engine/stepRequests.ts'],
  'src/engine': ['src/domain', 'src/ports'],
  'src/chain': ['src/domain', 'src/ports'],
  'src/store': ['src/domain', 'src/ports'],
  'src/rest': FRONT_DOOR,
  'src/graphql': FRONT_DOOR,
  'src/dashboard': FRONT_DOOR,
  'src/http': ['src/domain'],
  'src/logger.ts': [],
  'src/metrics.ts': ['src/domain'],
  'src/service.ts': '*',
  'src/main.ts': '*',
  'src/frontDoors.ts': '*',
  'src/config.ts': '*',
};

const SRC = 'src';
/** How an import names an entry of src/: its path below src/, without `.ts`. */
const moduleName = (entry) => entry.slice(SRC.length + 1).replace(/\.ts$/, '');
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Directory depth below src/ of the deepest file (src/app/x.ts: 1), so every file falls under one block below. */
function deepest(dir, depth = 0) {
  return Math.max(
    depth,
    ...readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => deepest(join(dir, e.name), depth + 1)),
  );
}

function restrictedBeyond(entry, allowed, ups) {
  const names = [...new Set([...allowed, entry])].map((e) => escape(moduleName(e))).join('|');
  const message = `${entry} may import ${allowed.length ? allowed.join(', ') : 'nothing of the service'} (docs/architecture.md, Layers; the table is eslint.layers.mjs).`;
  const up = ups === 0 ? '\\./' : `(?:\\.\\./){${ups}}`;
  // Exactly `ups` steps up reach src/; what follows names the entry imported. More steps leave src/ (not a layer).
  return ['error', { patterns: [{ regex: `^${up}(?!\\.\\./)(?!(?:${names})(?:/|$))`, caseSensitive: true, message }] }];
}

/** One config block per layer and directory depth: a relative import is checked against the layer's row by how far up it goes. */
export function layerRules() {
  const entries = readdirSync(SRC).map((e) => `${SRC}/${e}`);
  const unplaced = entries.filter((e) => !(e in LAYERS));
  if (unplaced.length) throw new Error(`eslint.layers.mjs: in no layer yet: ${unplaced.join(', ')}. Add each to LAYERS and to docs/architecture.md's table`);
  const maxDepth = deepest(SRC);
  const layers = Object.entries(LAYERS)
    .filter(([, allowed]) => allowed !== '*')
    .flatMap(([entry, allowed]) =>
      entry.endsWith('.ts')
        ? [{ files: [entry], rules: { '@typescript-eslint/no-restricted-imports': restrictedBeyond(entry, allowed, 0) } }]
        : Array.from({ length: maxDepth }, (_, i) => ({
            files: [`${entry}/${'*/'.repeat(i)}*.ts`],
            rules: { '@typescript-eslint/no-restricted-imports': restrictedBeyond(entry, allowed, i + 1) },
          })),
    );
  return [...layers, engineLayers];
}

/** Imports the rule above cannot read (it sees import and export declarations only) stay off relative paths in src/. */
export const noHiddenImports = {
  files: ['src/**/*.ts'],
  rules: {
    'no-restricted-syntax': [
      'error',
      {
        selector: 'ImportExpression[source.value=/^\\./]',
        message: 'Import modules of src/ with an import declaration: the layer check (eslint.layers.mjs) reads only those.',
      },
      {
        selector: "CallExpression[callee.name='require'][arguments.0.value=/^\\./]",
        message: 'Import modules of src/ with an import declaration: the layer check (eslint.layers.mjs) reads only those.',
      },
      {
        selector: 'TSImportType[source.value=/^\\./]',
        message: 'Import types of src/ with an import declaration: the layer check (eslint.layers.mjs) reads only those.',
      },
    ],
  },
};

/**
 * The engine's inner layers (docs/architecture.md, "Inside the engine"), lowest first: a file of src/engine may
 * import files of its own tier and of the tiers below, never one above, and no import cycle is allowed at all
 * (type-only imports count, as for the layers). Each entry is a file or, ending in '/', a folder below src/engine.
 * A new file of src/engine fails the lint until it is placed here.
 */
export const ENGINE_TIERS = [
  {
    tier: 'support',
    holds: [
      'abort.ts',
      'actors/',
      'actorChains.ts',
      'changeFeedBus.ts',
      'commitTransition.ts',
      'engineLogger.ts',
      'eventBus.ts',
      'intentAudit.ts',
      'leaseKeeper.ts',
      'operationGas.ts',
      'retry.ts',
      'sharedBus.ts',
      'stepAmounts.ts',
      'stepRequests.ts',
      'walletSigner.ts',
    ],
  },
  { tier: 'planner', holds: ['planner/'] },
  { tier: 'planning', holds: ['holdingsAndReservations.ts', 'planIntent.ts', 'planning.ts', 'supplyPermits.ts', 'unitContext.ts'] },
  { tier: 'executor', holds: ['executor/', 'cancelRequest.ts'] },
  { tier: 'actors', holds: ['advance.ts', 'engine.ts', 'intentActor.ts', 'recovery.ts', 'walletActor.ts'] },
];

const ENGINE = 'src/engine';
const IMPORT_RE = /^\s*(?:import|export)\b[^'"]*?(?:\bfrom\s*)?['"](\.{1,2}\/[^'"]+)['"]/gm;

function engineFiles(dir = ENGINE, prefix = '') {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? engineFiles(join(dir, e.name), `${prefix}${e.name}/`) : e.name.endsWith('.ts') ? [`${prefix}${e.name}`] : [],
  );
}

/** The tier index of a file below src/engine (`executor/runSubTx.ts`), or -1 when it is in none. */
export function engineTierOf(rel) {
  return ENGINE_TIERS.findIndex((t) => t.holds.some((h) => (h.endsWith('/') ? rel.startsWith(h) : rel === h)));
}

/** The files below src/engine that `rel`'s text imports (relative imports staying inside src/engine). */
function engineImports(rel, text) {
  const out = [];
  for (const m of text.matchAll(IMPORT_RE)) {
    const parts = `${rel.split('/').slice(0, -1).join('/')}/${m[1]}`.split('/').filter((p) => p !== '' && p !== '.');
    const path = [];
    let outside = false;
    for (const p of parts) {
      if (p !== '..') path.push(p);
      else if (path.length > 0) path.pop();
      else outside = true;
    }
    if (!outside) out.push({ spec: m[1], target: `${path.join('/')}.ts` });
  }
  return out;
}

/**
 * Every breach of ENGINE_TIERS in src/engine as on disk, with `texts` (file below src/engine → its text) taking the
 * place of what is on disk: `{ file, message }` for a file in no tier, an import of a higher tier, and each file on
 * an import cycle (the cycle named). Empty when the engine has no arrow back up.
 */
export function engineImportProblems(texts = {}) {
  const files = [...new Set([...engineFiles(), ...Object.keys(texts)])].sort();
  const read = (rel) => texts[rel] ?? readFileSync(join(ENGINE, rel), 'utf8');
  const imports = new Map(files.map((f) => [f, engineImports(f, read(f))]));
  // An import's tier is read from its path; the cycle search walks only the files there are.
  const edges = new Map(files.map((f) => [f, imports.get(f).filter((i) => files.includes(i.target))]));
  const problems = [];
  for (const f of files) {
    const tier = engineTierOf(f);
    if (tier < 0) {
      problems.push({
        file: f,
        message: `src/engine/${f} is in no tier of the engine: place it in ENGINE_TIERS (eslint.layers.mjs) and docs/architecture.md.`,
      });
      continue;
    }
    for (const { spec, target } of imports.get(f)) {
      const to = engineTierOf(target);
      if (to > tier) {
        problems.push({
          file: f,
          message: `src/engine/${f} (${ENGINE_TIERS[tier].tier}) imports '${spec}' of the higher tier ${ENGINE_TIERS[to].tier}: an arrow back up inside the engine (ENGINE_TIERS, eslint.layers.mjs).`,
        });
      }
    }
  }
  // Tarjan's strongly connected components: a component of more than one file, or a file importing itself, is a cycle.
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const visit = (v) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const { target: w } of edges.get(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = [];
    for (let w; w !== v;) {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    }
    if (component.length > 1 || edges.get(v).some((e) => e.target === v)) {
      const names = component.sort().join(', ');
      for (const f of component) problems.push({ file: f, message: `src/engine/${f} is on an import cycle: ${names}.` });
    }
  };
  for (const f of files) if (!index.has(f)) visit(f);
  return problems;
}

/** The engine's inner layers as a lint rule: the file linted, as its text stands, checked against the rest of src/engine on disk. */
const engineInnerLayers = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const file = context.filename.replaceAll('\\', '/');
    const at = file.lastIndexOf(`/${ENGINE}/`);
    if (at < 0) return {};
    const rel = file.slice(at + ENGINE.length + 2);
    return {
      'Program:exit'(node) {
        for (const p of engineImportProblems({ [rel]: context.sourceCode.text })) if (p.file === rel) context.report({ node, message: p.message });
      },
    };
  },
};

/** The config block of the engine's inner layers (part of layerRules()). */
export const engineLayers = {
  files: [`${ENGINE}/**/*.ts`],
  plugins: { engine: { rules: { 'inner-layers': engineInnerLayers } } },
  rules: { 'engine/inner-layers': 'error' },
};

import { readdirSync } from 'node:fs';
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
  return Object.entries(LAYERS)
    .filter(([, allowed]) => allowed !== '*')
    .flatMap(([entry, allowed]) =>
      entry.endsWith('.ts')
        ? [{ files: [entry], rules: { '@typescript-eslint/no-restricted-imports': restrictedBeyond(entry, allowed, 0) } }]
        : Array.from({ length: maxDepth }, (_, i) => ({
            files: [`${entry}/${'*/'.repeat(i)}*.ts`],
            rules: { '@typescript-eslint/no-restricted-imports': restrictedBeyond(entry, allowed, i + 1) },
          })),
    );
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

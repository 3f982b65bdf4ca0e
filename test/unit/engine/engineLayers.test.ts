import { execFileSync } from 'node:child_process';

interface Problem {
  file: string;
  message: string;
}

/** eslint.layers.mjs's engineImportProblems over src/engine, with `texts` standing in for files (an ES module: asked through node). */
function problems(texts: Record<string, string> = {}): Problem[] {
  const script = `import { engineImportProblems } from './eslint.layers.mjs'; process.stdout.write(JSON.stringify(engineImportProblems(${JSON.stringify(texts)})));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as Problem[];
}

describe('engine: inner layers (ENGINE_TIERS in eslint.layers.mjs)', () => {
  test('behavior: src/engine has no import of a higher tier, no file outside the tiers and no import cycle', () => {
    expect(problems()).toEqual([]);
  });

  test('error: the planner importing the executor is an arrow back up', () => {
    const found = problems({ 'planner/reserved.ts': "import { findSubTx } from '../executor/txRecords';\n" });
    expect(found).toEqual([
      expect.objectContaining({ file: 'planner/reserved.ts', message: expect.stringContaining("'../executor/txRecords' of the higher tier executor") }),
    ]);
  });

  test('error: an import cycle is named, type-only imports included', () => {
    const found = problems({
      'planner/a.ts': "import { b } from './b';\nexport const a = b;\n",
      'planner/b.ts': "import type { A } from './a';\nexport const b = 1;\n",
    });
    expect(found.map((p) => p.file).sort()).toEqual(['planner/a.ts', 'planner/b.ts']);
    expect(found[0]!.message).toContain('is on an import cycle: planner/a.ts, planner/b.ts');
  });

  test('error: a new file of src/engine must be placed in a tier', () => {
    expect(problems({ 'newThing.ts': 'export const x = 1;\n' })).toEqual([
      expect.objectContaining({ file: 'newThing.ts', message: expect.stringContaining('in no tier') }),
    ]);
  });
});

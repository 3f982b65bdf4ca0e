/**
 * Compiles contracts/*.sol with solc-js (npm `solc`, offline) into
 * src/chain/sandbox/artifacts.json ({contractName: {abi, bytecode}}) and
 * src/chain/sandbox/abis.ts (ABIs `as const`). Output is deterministic (sorted keys).
 * Usage: npm run contracts
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
// solc ships no type declarations.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const solc = require('solc') as {
  compile(input: string, callbacks?: { import(path: string): { contents: string } | { error: string } }): string;
  version(): string;
};

export const ROOT = resolve(__dirname, '..');
export const CONTRACTS_DIR = join(ROOT, 'contracts');
export const ARTIFACTS_PATH = join(ROOT, 'src/chain/sandbox/artifacts.json');
export const ABIS_PATH = join(ROOT, 'src/chain/sandbox/abis.ts');

/** One compiled, deployable contract. */
export interface CompiledContract {
  abi: unknown[];
  bytecode: `0x${string}`;
}

/** Deployable contracts by name, sorted by name. */
export type CompiledContracts = Record<string, CompiledContract>;

interface SolcOutput {
  errors?: { severity: 'error' | 'warning' | 'info'; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
}

/** Standard-JSON settings; changing them changes the bytecode. */
const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'cancun',
  metadata: { bytecodeHash: 'none' },
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
};

/** Compile every .sol file in `dir`; returns deployable contracts (interfaces and internal-only libraries are skipped). */
export function compileContracts(dir: string = CONTRACTS_DIR): CompiledContracts {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.sol'))
    .sort();
  const sources: Record<string, { content: string }> = {};
  for (const f of files) sources[`contracts/${f}`] = { content: readFileSync(join(dir, f), 'utf8') };
  const input = JSON.stringify({ language: 'Solidity', sources, settings: SETTINGS });
  const output = JSON.parse(solc.compile(input, { import: importFromPackages })) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(`solc failed:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  const warnings = (output.errors ?? []).filter((e) => e.severity === 'warning');
  if (warnings.length > 0) throw new Error(`solc warnings (fix them):\n${warnings.map((e) => e.formattedMessage).join('\n')}`);

  const result: CompiledContracts = {};
  for (const [file, contracts] of Object.entries(output.contracts ?? {})) {
    // a package's contracts compiled for an import are not ours to deploy (the package ships their artifacts)
    if (!file.startsWith('contracts/')) continue;
    for (const [name, c] of Object.entries(contracts)) {
      if (c.evm.bytecode.object.length === 0 || c.abi.length === 0) continue;
      if (result[name]) throw new Error(`duplicate contract name ${name} (in ${file})`);
      result[name] = { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
    }
  }
  return sortKeys(result) as CompiledContracts;
}

/**
 * solc's import callback: `@account-abstraction/...`, `@openzeppelin/...`
 * from the installed packages (package-lock pins them, so the output stays
 * the same); the packages' own relative imports arrive already resolved.
 */
function importFromPackages(path: string): { contents: string } | { error: string } {
  if (path.startsWith('.') || path.startsWith('/')) return { error: `not a package import: ${path}` };
  const [scope, name, ...rest] = path.split('/');
  const pkg = scope!.startsWith('@') ? `${scope}/${name}` : scope!;
  const inner = scope!.startsWith('@') ? rest : [name!, ...rest];
  try {
    const root = dirname(require.resolve(`${pkg}/package.json`, { paths: [ROOT] }));
    return { contents: readFileSync(join(root, ...inner), 'utf8') };
  } catch (err) {
    return { error: `cannot import ${path}: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/** Recursively sort object keys (arrays keep their order) so JSON output is stable. */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) out[k] = sortKeys((value as Record<string, unknown>)[k]);
    return out;
  }
  return value;
}

/** Text of src/chain/sandbox/artifacts.json. */
export function renderArtifactsJson(compiled: CompiledContracts): string {
  return `${JSON.stringify(sortKeys(compiled), null, 2)}\n`;
}

/** `SandboxToken` → `sandboxTokenAbi`. */
export function abiExportName(contractName: string): string {
  return `${contractName.charAt(0).toLowerCase()}${contractName.slice(1)}Abi`;
}

/** Text of src/chain/sandbox/abis.ts. */
export function renderAbisTs(compiled: CompiledContracts): string {
  const parts = ['// Generated by scripts/compile-contracts.ts (npm run contracts) from contracts/*.sol. Do not edit.'];
  for (const [name, c] of Object.entries(compiled)) {
    parts.push('', `/** ABI of ${name} (contracts/). */`);
    parts.push(`export const ${abiExportName(name)} = ${JSON.stringify(sortKeys(c.abi), null, 2)} as const;`);
  }
  return `${parts.join('\n')}\n`;
}

function main(): void {
  const started = Date.now();
  const compiled = compileContracts();
  writeFileSync(ARTIFACTS_PATH, renderArtifactsJson(compiled));
  writeFileSync(ABIS_PATH, renderAbisTs(compiled));
  console.log(`solc ${solc.version()}: ${Object.keys(compiled).length} contracts (${Object.keys(compiled).join(', ')}) in ${Date.now() - started} ms`);
}

if (require.main === module) main();

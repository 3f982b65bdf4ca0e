import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * `npm run demo` as CI runs it: a child process whose stdout is a pipe (not a
 * TTY), so plain lines, no cursor movement, no colour. It starts the service
 * in-process (on the shared devnets of SANDBOX_MANIFEST, inherited from jest's
 * global setup), creates and funds a wallet, shows the yields, lends across
 * chains following the subscription, and ends with the position and its APY.
 */

const ROOT = resolve(__dirname, '../..');

function runDemo(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn('npm', ['run', '--silent', 'demo'], { cwd: ROOT, env: { ...process.env, NO_COLOR: undefined }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

let run: { code: number | null; stdout: string; stderr: string };
let lines: string[];

beforeAll(async () => {
  run = await runDemo();
  lines = run.stdout.split('\n');
}, 240_000);

test('behavior: npm run demo exits 0', () => {
  if (run.code !== 0) throw new Error(`demo exited ${run.code}\n${run.stdout}\n${run.stderr}`);
});

test('behavior: not a TTY: no escape sequence anywhere in the output (no cursor movement, no colour)', () => {
  expect(run.stdout.includes('\x1b')).toBe(false);
  expect(run.stdout).toContain('in-process sandbox at http://127.0.0.1:');
});

test('behavior: a wallet is created, funded, and the USDC yields are shown as a table with the best market marked', () => {
  expect(run.stdout).toMatch(/^wallet created: svc_wallet_[0-9a-f]{32} for user demo-[0-9a-f]+, address 0x[0-9a-fA-F]{40}/m);
  expect(run.stdout).toMatch(/^funded: 5 USDC minted to the wallet on [a-z-]+ \(sandbox admin mint\)$/m);
  const header = lines.findIndex((l) => /^\s+chain\s+protocol\s+asset\s+APY$/.test(l));
  expect(header).toBeGreaterThan(-1);
  const after = lines.slice(header + 1);
  const end = after.findIndex((l) => !/^\s+\S/.test(l));
  const rows = end === -1 ? after : after.slice(0, end);
  expect(rows.length).toBeGreaterThanOrEqual(3);
  for (const row of rows) expect(row).toMatch(/^\s+(ethereum|arbitrum|base)-sepolia\s+(aave-v3|compound-v3)\s+USDC\s+\d+\.\d{2}%/);
  expect(rows.filter((r) => r.includes('← best'))).toHaveLength(1);
});

test('behavior: every step of the lend across chains has its line: bridge burn → attestation → mint → deposit, with tx hashes and gas in USD', () => {
  const tx = (label: string, kind: string) => new RegExp(`^\\s+${label} · ${kind}\\s+[a-z-]+\\s+confirmed\\s+0x[0-9a-f]{64}\\s+gas \\$\\d+\\.\\d+$`);
  const at = (re: RegExp) => {
    const i = lines.findIndex((l) => re.test(l));
    if (i === -1) throw new Error(`no line matches ${re}\n${run.stdout}`);
    return i;
  };
  const burn = at(tx('bridge', 'burn'));
  const attestation = at(/^\s+bridge · attestation\s+received for burn 0x[0-9a-f]{8}…[0-9a-f]{6}$/);
  const mint = at(tx('bridge', 'mint'));
  const supply = at(tx('deposit', 'supply'));
  const depositDone = at(/^\[step 2\/2\] deposit [\d.]+ USDC [a-z-]+ (aave-v3|compound-v3): completed\s+gas \$\d+\.\d+$/);
  expect(lines[at(/^\[step 1\/2\] bridge [\d.]+ USDC [a-z-]+ → [a-z-]+: completed\s+gas \$\d+\.\d+$/)]).toBeDefined();
  expect(burn).toBeLessThan(attestation);
  expect(attestation).toBeLessThan(mint);
  expect(mint).toBeLessThan(supply);
  expect(supply).toBeLessThan(depositDone);
});

// The amounts: 0.5 USDC lent, less the route fee the shared test sandbox takes on a bridge (none on the demo's own devnets).
test('behavior: the intent ends completed, and the position is shown with its APY', () => {
  expect(run.stdout).toMatch(/^intent intent_[0-9a-f]{32}: completed$/m);
  expect(run.stdout).toMatch(/^intent intent_[0-9a-f]{32} completed in [\d.]+ s: 2 steps, \d+ transactions, gas \d+ \(\$\d+\.\d+\), 0\.\d+ USDC in place$/m);
  expect(run.stdout).toMatch(/^\s+[a-z]+-sepolia\s+(aave-v3|compound-v3)\s+USDC\s+0\.\d+\s+\$0\.\d{2}\s+\d+\.\d{2}%$/m);
  expect(run.stdout).toMatch(/^position: 0\.\d+ USDC in (aave-v3|compound-v3) on [a-z]+-sepolia at \d+\.\d{2}% APY$/m);
});

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ERROR_STATUS } from '../../../src/domain/errors/base';

/**
 * The repository stands alone and its documents stay true: nothing points
 * outside it, every relative link lands on a file, every error code and
 * every configuration variable is documented, and the container files keep
 * the properties the operations guide promises.
 */
const ROOT = join(__dirname, '..', '..', '..');
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');
const tracked = (): string[] => execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
const MARKDOWN = ['README.md', 'CHANGELOG.md', 'BENCHMARKS.md', 'sdk/README.md', ...['api-guide', 'architecture', 'operations', 'decisions', 'spending-policies', 'schema-changes'].map((d) => `docs/${d}.md`)];

describe('the repository stands alone', () => {
  test('no tracked text file refers to documents outside the repository', () => {
    const outside = /\.\.\/shared\b/;
    const offenders = tracked()
      .filter((f) => /\.(md|ts|tsx|js|mjs|json|yaml|yml)$/.test(f) && f !== 'package-lock.json' && existsSync(join(ROOT, f)))
      .filter((f) => outside.test(read(f)) && f !== 'test/unit/docs/repositoryDocs.test.ts');
    expect(offenders).toEqual([]);
  });

  test.each(MARKDOWN)('every relative link in %s lands on a file of the repository', (doc) => {
    const text = read(doc);
    const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((l) => !/^(https?:|mailto:|#)/.test(l));
    const broken = links.filter((l) => !existsSync(resolve(ROOT, dirname(doc), l.split('#')[0]!)));
    expect(broken).toEqual([]);
  });
});

describe('the documents cover what the service does', () => {
  test('the API guide explains every error code the service answers', () => {
    const guide = read('docs/api-guide.md');
    const missing = Object.keys(ERROR_STATUS).filter((code) => !guide.includes(`\`${code}\``));
    expect(missing).toEqual([]);
  });

  test('the operations guide documents every environment variable the configuration reads', () => {
    const variables = [...read('src/config.ts').matchAll(/^ {4}([A-Z][A-Z0-9_]+): z/gm)].map((m) => m[1]!);
    expect(variables.length).toBeGreaterThan(20);
    const ops = read('docs/operations.md');
    expect(variables.filter((v) => !ops.includes(v))).toEqual([]);
  });
});

describe('container files', () => {
  test('the Dockerfile runs production dependencies only, as a non-root user, with a health check on /healthz', () => {
    const stages = read('Dockerfile').split(/^FROM /m).slice(1);
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const runtime = stages[stages.length - 1]!;
    expect(runtime).toMatch(/npm ci --omit=dev/);
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/^HEALTHCHECK [\s\S]*\/healthz/m);
    expect(runtime).not.toMatch(/npm run build/);
    expect(runtime).toMatch(/COPY [^\n]*--from=build [^\n]*dist/);
  });

  test('compose.yaml runs the service on MongoDB as a replica set, with secrets from the environment', () => {
    const compose = parseYaml(read('compose.yaml')) as { services: Record<string, { command?: string[]; environment?: Record<string, string>; depends_on?: Record<string, { condition: string }>; healthcheck?: unknown }> };
    const { mongo, service } = compose.services;
    expect(mongo?.command).toEqual(expect.arrayContaining(['--replSet', 'rs0']));
    expect(mongo?.healthcheck).toBeDefined();
    expect(service?.depends_on?.mongo?.condition).toBe('service_healthy');
    expect(service?.environment?.MONGODB_URI).toMatch(/^mongodb:\/\/mongo:27017\/\w+\?replicaSet=rs0$/);
    // Secrets are required from the environment, never written in the file.
    for (const secret of ['KEY_VAULT_MASTER_KEY', 'ADMIN_TOKEN', 'SESSION_SECRET']) expect(service?.environment?.[secret]).toMatch(/^\$\{\w+:\?/);
  });
});

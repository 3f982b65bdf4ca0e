import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ERROR_STATUS } from '../../../src/http/errorStatus';

/**
 * The repository stands alone and its documents stay true: nothing points
 * outside it, every relative link lands on a file, every error code and
 * every configuration variable is documented, and the container files keep
 * the properties the operations guide promises.
 */
const ROOT = join(__dirname, '..', '..', '..');
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');
const tracked = (): string[] => execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
const MARKDOWN = [
  'README.md',
  'CHANGELOG.md',
  'BENCHMARKS.md',
  'sdk/README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** The anchors GitHub gives a document's headings (code blocks left out): lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, text] of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const base = text!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

describe('the repository stands alone', () => {
  test('no tracked text file refers to documents outside the repository', () => {
    const outside = /\.\.\/shared\b/;
    const offenders = tracked()
      .filter((f) => /\.(md|ts|tsx|js|mjs|json|yaml|yml)$/.test(f) && f !== 'package-lock.json' && existsSync(join(ROOT, f)))
      .filter((f) => outside.test(read(f)) && f !== 'test/unit/docs/repositoryDocs.test.ts');
    expect(offenders).toEqual([]);
  });

  test.each(MARKDOWN)('every relative link in %s lands on a file of the repository, and on a heading of it when it names one', (doc) => {
    const text = read(doc);
    const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((l) => !/^(https?:|mailto:)/.test(l));
    const broken = links.filter((l) => {
      const [path, anchor] = l.split('#') as [string, string | undefined];
      const target = path === '' ? join(ROOT, doc) : resolve(ROOT, dirname(doc), path);
      if (!existsSync(target)) return true;
      return anchor !== undefined && target.endsWith('.md') && !headingAnchors(read(relative(ROOT, target))).has(anchor);
    });
    expect(broken).toEqual([]);
  });

  test('the README documents every document of docs/ (each reachable from it, directly or through another)', () => {
    const reachable = new Set<string>();
    const visit = (doc: string): void => {
      if (reachable.has(doc) || !doc.endsWith('.md') || !existsSync(join(ROOT, doc))) return;
      reachable.add(doc);
      for (const [, link] of read(doc).matchAll(/\]\(([^)\s#]+)(?:#[^)\s]*)?\)/g)) {
        if (!/^(https?:|mailto:)/.test(link!)) visit(relative(ROOT, resolve(ROOT, dirname(doc), link!)));
      }
    };
    visit('README.md');
    expect(MARKDOWN.filter((d) => d.startsWith('docs/') && !reachable.has(d))).toEqual([]);
  });

  test("the README's test command is the one CI runs", () => {
    const ci = read('.ci/run');
    const readmeCommands = [...read('README.md').matchAll(/^```bash\n([\s\S]*?)^```/gm)].flatMap((m) => m[1]!.split('\n'));
    const testLine = readmeCommands.find((l) => /^(npm ci && )?npm (run )?test\b/.test(l))!;
    expect(testLine).toBeDefined();
    const command = testLine
      .replace(/\s+#.*$/, '')
      .replace(/^npm ci && /, '')
      .trim();
    expect(ci.split('\n').map((l) => l.trim())).toContain(command);
  });
});

describe('the documents cover what the service does', () => {
  test('the API guide explains every error code the service answers', () => {
    const guide = read('docs/api-guide.md');
    const missing = Object.keys(ERROR_STATUS).filter((code) => !guide.includes(`\`${code}\``));
    expect(missing).toEqual([]);
  });

  test("the configuration reference's table has a row for every environment variable the configuration reads", () => {
    const variables = [...read('src/config.ts').matchAll(/^ {4}([A-Z][A-Z0-9_]+): z/gm)].map((m) => m[1]!);
    expect(variables.length).toBeGreaterThan(20);
    const rows = read('docs/configuration.md')
      .split('\n')
      .filter((l) => l.startsWith('| `'));
    const firstCells = rows.map((r) => r.split('|')[1]!);
    expect(variables.filter((v) => !firstCells.some((cell) => cell.includes(`\`${v}\``)))).toEqual([]);
  });
});

interface ComposeService {
  image?: string;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: unknown;
  ports?: (string | { host_ip?: string; published: string | number })[];
  volumes?: string[];
}
const readCompose = (file: string) => parseYaml(read(file)) as { services: Record<string, ComposeService> };

describe('container files', () => {
  test('the Dockerfile runs production dependencies only, as a non-root user, with a health check on /healthz', () => {
    const stages = read('Dockerfile')
      .split(/^FROM /m)
      .slice(1);
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const runtime = stages[stages.length - 1]!;
    expect(runtime).toMatch(/npm ci --omit=dev/);
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/^HEALTHCHECK [\s\S]*\/healthz/m);
    expect(runtime).not.toMatch(/npm run build/);
    expect(runtime).toMatch(/COPY [^\n]*--from=build [^\n]*dist/);
  });

  test('compose.yaml runs the service on MongoDB as a replica set, with secrets from the environment', () => {
    const compose = parseYaml(read('compose.yaml')) as {
      services: Record<
        string,
        { command?: string[]; environment?: Record<string, string>; depends_on?: Record<string, { condition: string }>; healthcheck?: unknown }
      >;
    };
    const { mongo, service } = compose.services;
    expect(mongo?.command).toEqual(expect.arrayContaining(['--replSet', 'rs0']));
    expect(mongo?.healthcheck).toBeDefined();
    expect(service?.depends_on?.mongo?.condition).toBe('service_healthy');
    expect(service?.environment?.MONGODB_URI).toMatch(/^mongodb:\/\/mongo:27017\/\w+\?replicaSet=rs0$/);
    // Secrets are required from the environment, never written in the file.
    for (const secret of ['KEY_VAULT_MASTER_KEY', 'ADMIN_TOKEN', 'SESSION_SECRET']) expect(service?.environment?.[secret]).toMatch(/^\$\{\w+:\?/);
  });

  test.each(['compose.yaml', 'compose.scale.yaml'])('%s publishes nothing beyond 127.0.0.1', (file) => {
    const published = Object.values(readCompose(file).services).flatMap((s) => s.ports ?? []);
    expect(published.length).toBeGreaterThan(0);
    for (const p of published) expect(typeof p === 'string' ? p : `${p.host_ip ?? ''}:${p.published}`).toMatch(/^127\.0\.0\.1:/);
  });
});

describe('compose.scale.yaml: the production-like setup of docs/operations.md, "Several instances"', () => {
  const compose = readCompose('compose.scale.yaml');
  const services = compose.services;
  const names = Object.keys(services);
  const members = names.filter((n) => services[n]!.image?.startsWith('mongo:'));
  const instances = names.filter((n) => services[n]!.environment?.MONGODB_URI !== undefined);

  test('three MongoDB members form one replica set, initiated with all three by a health check', () => {
    expect(members).toHaveLength(3);
    for (const m of members) expect(services[m]!.command).toEqual(expect.arrayContaining(['--replSet', 'rs0']));
    const initiators = members.filter((m) => services[m]!.healthcheck !== undefined);
    expect(initiators).toHaveLength(1);
    const check = JSON.stringify(services[initiators[0]!]!.healthcheck);
    expect(check).toContain('rs.initiate');
    for (const m of members) expect(check).toContain(`${m}:27017`);
  });

  test('three instances of one image, each naming every member and the replica set in its URI, waiting for a primary and for the chains', () => {
    expect(instances).toHaveLength(3);
    const initiator = members.find((m) => services[m]!.healthcheck !== undefined)!;
    for (const i of instances) {
      const s = services[i]!;
      expect(s.image).toBe(services[instances[0]!]!.image);
      expect(s.ports).toBeUndefined();
      expect(s.environment?.HOST).toBe('0.0.0.0');
      // (a seed list is no WHATWG URL: read it by hand)
      const [, hosts, query] = /^mongodb:\/\/([^/]+)\/\w+\?(.+)$/.exec(s.environment!.MONGODB_URI!)!;
      expect(hosts!.split(',').sort()).toEqual(members.map((m) => `${m}:27017`).sort());
      expect(new URLSearchParams(query).get('replicaSet')).toBe('rs0');
      expect(s.depends_on?.[initiator]?.condition).toBe('service_healthy');
      expect(s.depends_on?.chains?.condition).toBe('service_healthy');
    }
  });

  test('the instances share their secrets, required from the environment, and their public URL', () => {
    for (const key of ['KEY_VAULT_MASTER_KEY', 'ADMIN_TOKEN', 'SESSION_SECRET', 'PUBLIC_URL', 'MONGODB_URI']) {
      const values = new Set(instances.map((i) => services[i]!.environment?.[key]));
      expect([key, values.size]).toEqual([key, 1]);
    }
    for (const secret of ['KEY_VAULT_MASTER_KEY', 'ADMIN_TOKEN', 'SESSION_SECRET'])
      expect(services[instances[0]!]!.environment?.[secret]).toMatch(/^\$\{\w+:\?/);
  });

  test('every instance attaches to the one set of sandbox chains: the manifest the chains container writes, on a shared volume', () => {
    const chains = services.chains!;
    const manifest = chains.environment?.SANDBOX_MANIFEST_OUT;
    expect(manifest).toMatch(/^\/\w+\/manifest\.json$/);
    expect(chains.environment?.SANDBOX_HOST).toBe('0.0.0.0');
    expect(chains.environment?.SANDBOX_PUBLIC_HOST).toBe('chains');
    expect(chains.ports).toBeUndefined();
    expect(JSON.stringify(chains.healthcheck)).toContain('--check');
    const volumeOf = (s: ComposeService) => (s.volumes ?? []).find((v) => v.split(':')[1] === dirname(manifest!))?.split(':')[0];
    expect(volumeOf(chains)).toBeDefined();
    for (const i of instances) {
      expect(services[i]!.environment?.SANDBOX_MANIFEST).toBe(manifest);
      expect(volumeOf(services[i]!)).toBe(volumeOf(chains));
    }
    // The container runs the built script: the build must include it.
    const script = chains.command!.find((c) => c.endsWith('sandbox-chains.js'))!;
    expect(script).toBe('dist/scripts/sandbox-chains.js');
    expect((JSON.parse(read('tsconfig.build.json')) as { include: string[] }).include).toContain('scripts/sandbox-chains.ts');
  });

  test('the proxy round-robins over exactly the three instances, passes WebSocket upgrades, keeps subscriptions open, forwards the client', () => {
    const proxy = services.proxy!;
    expect(proxy.image).toMatch(/^nginx:/);
    const mount = proxy.volumes!.find((v) => v.startsWith('./deploy/'))!;
    const conf = read(mount.split(':')[0]!.slice(2))
      .split('\n')
      .map((l) => l.replace(/#.*/, ''))
      .join('\n');
    const upstream = /upstream\s+(\w+)\s*\{([^}]*)\}/.exec(conf)!;
    const servers = [...upstream[2]!.matchAll(/^\s*server\s+([^\s;]+)/gm)].map((m) => m[1]);
    expect(servers.sort()).toEqual(instances.map((i) => `${i}:3000`).sort());
    // no sticky sessions: any instance answers any request
    expect(upstream[2]).not.toMatch(/\b(ip_hash|hash|sticky|least_conn)\b/);
    expect(conf).toContain(`proxy_pass http://${upstream[1]};`);
    expect(conf).toMatch(/proxy_set_header\s+Upgrade\s+\$http_upgrade;/);
    expect(conf).toMatch(/proxy_set_header\s+Connection\s+\$connection_upgrade;/);
    for (const h of ['X-Forwarded-For', 'X-Forwarded-Proto']) expect(conf).toMatch(new RegExp(`proxy_set_header\\s+${h}\\s`));
    const graphql = /location\s+\/graphql\s*\{([^}]*)\}/.exec(conf)![1]!;
    const [, amount, unit] = /proxy_read_timeout\s+(\d+)([smh]?);/.exec(graphql)!;
    expect(Number(amount) * ({ '': 1, s: 1, m: 60, h: 3600 } as Record<string, number>)[unit!]!).toBeGreaterThanOrEqual(3600);
  });
});

import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The pinned MongoDB-compatible test server (an optional dependency: present on linux-x64-gnu). */
const PACKAGE = '@jongodb/memory-server-bin-linux-x64-gnu';

export interface TestMongo {
  uri: string;
  stop(): Promise<void>;
}

/** Path of the server binary, or null when the optional package is not installed (another platform). */
export function mongoBinary(): string | null {
  try {
    const pkgJson = require.resolve(`${PACKAGE}/package.json`);
    const pkg = JSON.parse(readFileSync(pkgJson, 'utf8')) as { jongodb?: { binary?: string } };
    return join(dirname(pkgJson), pkg.jongodb?.binary ?? 'bin/jongodb');
  } catch {
    return null;
  }
}

/**
 * Starts the server as a single-node replica set on a port the OS picks; it
 * prints its URI once it listens. The child dies with the test run.
 */
export function startTestMongo(binary: string, timeoutMs = 30_000): Promise<TestMongo> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(binary, ['--host=127.0.0.1', '--port=0', '--topology-profile=singleNodeReplicaSet', '--replica-set-name=rs0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`test MongoDB did not start in ${timeoutMs} ms:\n${out.slice(-2000)}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const uri = /JONGODB_URI=(\S+)/.exec(out)?.[1];
      if (!uri) return;
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stdout?.resume();
      child.stderr?.resume();
      resolve({
        uri,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
            setTimeout(() => child.kill('SIGKILL'), 3000).unref();
          }),
      });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`test MongoDB exited (${code}) before listening:\n${out.slice(-2000)}`));
    });
    process.once('exit', () => child.kill('SIGKILL'));
  });
}

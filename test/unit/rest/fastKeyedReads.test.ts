import type { IncomingMessage, ServerResponse } from 'node:http';
import { fastKeyedReads, type FastRead } from '../../../src/rest/fastKeyedReads';
import type { RouteInfo } from '../../../src/http/router';
import type { AppDeps } from '../../../src/app/deps';
import { createLogger } from '../../../src/logger';

const read: FastRead = { path: '/v1/yields', operation: 'getYields', answer: () => '{}' };
const route: RouteInfo = { method: 'GET', path: '/v1/yields', guarded: true, name: 'getYields' };
const build = (routes: RouteInfo[]) =>
  fastKeyedReads({
    deps: {} as AppDeps,
    logger: createLogger('silent'),
    metrics: { httpDuration: { observe: () => undefined } } as never,
    reads: [read],
    routes,
  });

test('error: a fast read must mirror a guarded GET route of its path and operation name, or the front door refuses to start', () => {
  expect(() => build([route])).not.toThrow();
  expect(() => build([])).toThrow(/GET \/v1\/yields/);
  expect(() => build([{ ...route, guarded: false }])).toThrow(/guarded/);
  expect(() => build([{ ...route, name: 'getBalances' }])).toThrow(/getYields/);
  expect(() => build([{ ...route, method: 'POST' }])).toThrow();
});

test('behavior: only GET of the exact path with a non-empty Authorization header is taken; anything else is left to Koa', () => {
  const take = build([route]);
  const res = {} as ServerResponse;
  const req = (method: string, url: string, authorization?: string) =>
    ({ method, url, headers: authorization === undefined ? {} : { authorization } }) as IncomingMessage;
  const key = `Bearer svc_sk_${'ab'.repeat(32)}`;
  expect(take(req('HEAD', '/v1/yields', key), res)).toBe(false);
  expect(take(req('POST', '/v1/yields', key), res)).toBe(false);
  expect(take(req('GET', '/v1/yields?', key), res)).toBe(false);
  expect(take(req('GET', '/v1/yields?asset=USDC', key), res)).toBe(false);
  expect(take(req('GET', '/v1/yields/', key), res)).toBe(false);
  expect(take(req('GET', '/V1/yields', key), res)).toBe(false);
  expect(take(req('GET', '/v1/yields'), res)).toBe(false);
  expect(take(req('GET', '/v1/yields', ''), res)).toBe(false);
});

/** The path a devnet started by startDevnets serves stalls on, beside its JSON-RPC (same origin). */
export const DEVNET_STALL_PATH = '/sandbox/stall';

/**
 * Preloaded (`node --require`) in each devnet node, plain JavaScript:
 *
 * - watchdog: when the parent's IPC channel closes (parent gone, even by
 *   SIGKILL), remove the temp dir and exit;
 * - stalls owned by the devnet: `POST /sandbox/stall {seconds, blockTimeMs}`
 *   on the node's own HTTP server stops its mining and ends the stall with a
 *   timer inside the node process, so a stall ends whatever happens to the
 *   service that asked for it (killed, restarted). The node's http server is
 *   wrapped at creation; every other request goes to Hardhat untouched. The
 *   answer is `{resumesAt}`; a new stall replaces the pending one.
 */
export const DEVNET_PRELOAD_JS = `process.on('disconnect', () => {
  try { require('node:fs').rmSync(__dirname, { recursive: true, force: true }); } catch {}
  process.exit(0);
});

const http = require('node:http');
const createServer = http.createServer;
let stallTimer;
http.createServer = function (...args) {
  const server = createServer.apply(this, args);
  const emit = server.emit;
  server.emit = function (event, req, res) {
    if (event === 'request' && req.method === 'POST' && new URL(req.url || '/', 'http://devnet').pathname === ${JSON.stringify(DEVNET_STALL_PATH)}) {
      stall(server, req, res);
      return true;
    }
    return emit.apply(this, arguments);
  };
  return server;
};

function self(server, method, params) {
  const { port } = server.address();
  return fetch('http://127.0.0.1:' + port + '/', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  }).then((r) => r.json()).then((b) => { if (b.error) throw new Error(method + ': ' + b.error.message); });
}

function stall(server, req, res) {
  let text = '';
  req.setEncoding('utf8');
  req.on('data', (c) => { text += c; });
  req.on('end', async () => {
    const answer = (status, body) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    try {
      const { seconds, blockTimeMs } = JSON.parse(text || '{}');
      if (!(Number.isFinite(seconds) && seconds > 0) || !(Number.isInteger(blockTimeMs) && blockTimeMs >= 0)) {
        return answer(400, { error: 'seconds > 0 and blockTimeMs >= 0 are required' });
      }
      clearTimeout(stallTimer);
      await self(server, 'evm_setAutomine', [false]);
      await self(server, 'evm_setIntervalMining', [0]);
      stallTimer = setTimeout(() => {
        stallTimer = undefined;
        self(server, 'evm_setIntervalMining', [blockTimeMs])
          .then(() => self(server, 'evm_setAutomine', [blockTimeMs === 0]))
          .then(() => (blockTimeMs === 0 ? self(server, 'evm_mine', []) : undefined))
          .catch((e) => process.stderr.write('devnet: ending the stall failed: ' + e.message + '\\n'));
      }, seconds * 1000);
      answer(200, { resumesAt: new Date(Date.now() + seconds * 1000).toISOString() });
    } catch (e) {
      answer(500, { error: e instanceof Error ? e.message : String(e) });
    }
  });
}
`;

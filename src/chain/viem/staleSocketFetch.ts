/**
 * `fetch` for JSON-RPC reads that survives a stale keep-alive socket.
 *
 * A node closes an idle keep-alive connection after its timeout; when the
 * client's own idle timer fires late (the event loop was busy, e.g. loading
 * modules), the next request is written on a socket the node has already
 * closed and fails with "other side closed" before any answer. That request
 * never reached the node, so it is sent once more, on a fresh connection.
 * Only requests without a transaction in them are resent: a send that did
 * reach the node must not be repeated (the executor decides what a failed
 * broadcast means). Anything else, and a second failure, is thrown as it was.
 */
const WRITES = /"method":"eth_send(Raw)?Transaction"/;

function staleSocket(e: unknown): boolean {
  const cause = (e as { cause?: { code?: unknown } } | null)?.cause;
  return (e as Error | null)?.name === 'TypeError' && (cause?.code === 'UND_ERR_SOCKET' || cause?.code === 'ECONNRESET');
}

export const fetchResendingReadsOnStaleSocket: typeof fetch = async (input, init) => {
  try {
    return await fetch(input, init);
  } catch (e) {
    const body = init?.body;
    if (!staleSocket(e) || init?.signal?.aborted || typeof body !== 'string' || WRITES.test(body)) throw e;
    return fetch(input, init);
  }
};

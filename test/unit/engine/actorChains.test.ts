import { ActorChains } from '../../../src/engine/actorChains';
import { EngineStopped } from '../../../src/engine/abort';
import { createScheduler } from '../../../src/engine/actors/scheduler';
import { SimulatedClock } from '../../../src/domain/clock';
import type { ChainPort } from '../../../src/ports/chain';

/** A port whose rates() answer what the test hands it, when it says so. */
function heldPort() {
  const answers: { resolve: (v: unknown) => void; reject: (e: unknown) => void }[] = [];
  const port = {
    chains: ['base-sepolia'],
    rates: () => new Promise((resolve, reject) => answers.push({ resolve, reject })),
  } as unknown as ChainPort;
  return { port, answers };
}

/** An actor's chains over a scheduler on a simulated clock whose slice is spent, so every answer waits for a later turn. */
function spentTurn() {
  const clock = new SimulatedClock(0);
  const scheduler = createScheduler({ budgetMs: 4, clock });
  scheduler.pass();
  clock.advance(5);
  return { scheduler, turn: () => clock.turn() };
}

const settle = async (p: Promise<unknown>) => {
  const seen: { value?: unknown; error?: unknown } = {};
  void p.then(
    (value) => (seen.value = value),
    (error: unknown) => (seen.error = error),
  );
  for (let n = 0; n < 5; n++) await Promise.resolve();
  return seen;
};

describe('ActorChains', () => {
  test("behavior: an answer, value or error, is handed over at the actor's turn, not before", async () => {
    const { port, answers } = heldPort();
    const { scheduler, turn } = spentTurn();
    const chains = new ActorChains(port, new AbortController().signal, scheduler);
    const ok = chains.rates();
    const failing = chains.rates();
    answers[0]!.resolve(['rate']);
    answers[1]!.reject(new Error('node down'));
    const early = await settle(Promise.allSettled([ok, failing]));
    expect(early).toEqual({});
    for (let n = 0; n < 5; n++) await turn();
    await expect(ok).resolves.toEqual(['rate']);
    await expect(failing).rejects.toThrow('node down');
  });

  test('behavior: without a gate an answer is handed over at once', async () => {
    const { port, answers } = heldPort();
    const chains = new ActorChains(port, new AbortController().signal);
    const p = chains.rates();
    answers[0]!.resolve(['rate']);
    expect(await settle(p)).toEqual({ value: ['rate'] });
  });

  test('behavior: an abort rejects the calls in flight with EngineStopped at once, whether waiting for the answer or for the turn', async () => {
    const { port, answers } = heldPort();
    const { scheduler } = spentTurn();
    const controller = new AbortController();
    const chains = new ActorChains(port, controller.signal, scheduler);
    const unanswered = chains.rates();
    const waitingForTurn = chains.rates();
    answers[1]!.resolve(['rate']);
    await settle(waitingForTurn);
    controller.abort();
    expect((await settle(unanswered)).error).toBeInstanceOf(EngineStopped);
    expect((await settle(waitingForTurn)).error).toBeInstanceOf(EngineStopped);
    // the abandoned call settling later changes nothing
    answers[0]!.reject(new Error('late'));
    expect((await settle(unanswered)).error).toBeInstanceOf(EngineStopped);
  });

  test('behavior: a call after the abort rejects with EngineStopped, and its own later failure is not left unhandled', async () => {
    const { port, answers } = heldPort();
    const controller = new AbortController();
    controller.abort();
    const chains = new ActorChains(port, controller.signal);
    const unhandled = jest.fn();
    process.on('unhandledRejection', unhandled);
    try {
      await expect(chains.rates()).rejects.toBeInstanceOf(EngineStopped);
      answers[0]!.reject(new Error('node down'));
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});

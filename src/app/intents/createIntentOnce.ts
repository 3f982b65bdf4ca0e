import { withIdempotency, type Replayable } from '../idempotency';
import type { Actor } from '../../domain/actor';
import type { CreateIntentCommand } from '../../domain/commands';
import type { Intent } from '../../domain/intent';
import { createIntent, type CreateIntentDeps } from './createIntent';
import { toIntentView, type IntentView } from './intentView';

/** A first answer carries the intent created; a replay only the answer its key's record kept. */
export type CreatedOnce = Replayable<IntentView> & { intent?: Intent };

/**
 * createIntent under an Idempotency-Key, for 24 h: the same key with the same
 * request answers the first answer again (201 and the intent's REST view, the
 * record REST replays), another request is 409 IDEMPOTENCY_CONFLICT. One
 * record per account and key, whichever caller sent it: the REST and GraphQL
 * doors (the header) and the standing-intent decider (a key per decision).
 * `commandOf` runs inside the guard, so a request refused by its parse frees
 * the key as any failed attempt does.
 */
export function createIntentOnce(
  deps: CreateIntentDeps,
  actor: Actor,
  idempotency: { key: string | undefined; request: unknown },
  commandOf: () => CreateIntentCommand,
): Promise<CreatedOnce> {
  let intent: Intent | undefined;
  return withIdempotency(deps, { scope: `${actor.account.id}:createIntent`, ...idempotency }, async ({ seed }) => {
    intent = await createIntent(deps, actor, commandOf(), seed === undefined ? {} : { idSeed: seed });
    return { status: 201, body: toIntentView(intent) };
  }).then((answer) => (answer.replayed ? answer : { ...answer, intent }));
}

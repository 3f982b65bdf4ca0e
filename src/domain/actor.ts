import type { AuditActor } from './audit';
import type { Account } from './types';

/**
 * Who acts on an account when a use case changes something: one of its API
 * keys, a person signed in to the dashboard, or the service itself (a
 * standing intent's move). A paid read acts for nobody and is no actor. The
 * audit log records the actor as it is: the service is `system`, never an API
 * key without an id.
 */
export type Actor =
  | { type: 'apiKey'; account: Account; keyId: string | null }
  | { type: 'session'; account: Account; userId: string | null }
  | { type: 'system'; account: Account };

/** The service acting for `account` (the standing-intent decider). */
export const systemActor = (account: Account): Actor => ({ type: 'system', account });

/** How the audit log names `actor`. */
export function auditActorOf(actor: Actor): AuditActor {
  if (actor.type === 'apiKey') return { type: 'apiKey', id: actor.keyId };
  if (actor.type === 'session') return { type: 'session', id: actor.userId };
  return { type: 'system', id: null };
}

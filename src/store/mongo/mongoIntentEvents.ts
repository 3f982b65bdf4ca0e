import { MongoServerError, type Db } from 'mongodb';
import type { Clock } from '../../domain/clock';
import type { Intent } from '../../domain/intent';
import type { IntentEventLog } from '../../ports/store';

interface EventDoc {
  seq: number;
  origin: string;
  intent: Intent;
  /** Written at; the TTL index drops entries an hour later. */
  at: Date;
}

/** Tries at taking a sequence number when a server hands the same one twice (non-isolated findAndModify). */
const SEQ_ATTEMPTS = 8;

/**
 * The intent event log on MongoDB: collection `intentEvents` (unique `seq`),
 * sequence numbers from a counter document in `counters` ($inc, returning the
 * document after: classic operators only). The unique index makes a number a
 * server handed out twice fail the insert, and the append takes the next one.
 */
/** `clock`: what each event's `at` says (the store's clock). */
export function createMongoIntentEvents(db: Db, clock: Pick<Clock, 'now'>): IntentEventLog {
  const events = db.collection<EventDoc>('intentEvents');
  const counters = db.collection<{ _id: string; seq: number }>('counters');
  return {
    async append(origin, intent) {
      for (let attempt = 1; ; attempt++) {
        const counter = await counters.findOneAndUpdate({ _id: 'intentEvents' }, { $inc: { seq: 1 } }, { upsert: true, returnDocument: 'after' });
        const seq = counter?.seq;
        if (typeof seq !== 'number') throw new Error('intentEvents counter returned no document');
        try {
          await events.insertOne({ seq, origin, intent, at: clock.now() }, { ignoreUndefined: true });
          return seq;
        } catch (e) {
          if (!(e instanceof MongoServerError && e.code === 11000) || attempt >= SEQ_ATTEMPTS) throw e;
        }
      }
    },
    async readAfter(after, limit) {
      const docs = await events
        .find({ seq: { $gt: after } })
        .sort({ seq: 1 })
        .limit(limit)
        .toArray();
      return docs.map((d) => ({ seq: d.seq, origin: d.origin, intent: d.intent }));
    },
    async head() {
      const [last] = await events.find({}).sort({ seq: -1 }).limit(1).toArray();
      return last?.seq ?? 0;
    },
  };
}

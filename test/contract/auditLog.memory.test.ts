import { createMemoryStore } from '../../src/store/memory/memoryStore';
import { createMemoryAuditLog } from '../../src/store/memory/memoryAuditLog';
import { AUDIT_RETENTION_MS, type AuditEvent } from '../../src/domain/audit';
import { newId } from '../../src/domain/ids';
import { describeAuditLogContract } from './auditLog.contract';

describeAuditLogContract('memory', async () => createMemoryStore());

describe('memory audit log: retention follows its clock', () => {
  test('behavior: an event listed today is gone once the clock passes 90 days after it (dropped, not only hidden)', async () => {
    let now = Date.UTC(2026, 0, 1);
    const log = createMemoryAuditLog({ now: () => new Date(now) });
    const e: AuditEvent = {
      id: newId('audit'),
      accountId: 'acct_a',
      at: new Date(now).toISOString(),
      type: 'apikey.created',
      actor: { type: 'admin', id: null },
      subject: { keyId: 'key_1' },
      details: {},
    };
    await log.append(e);
    now += AUDIT_RETENTION_MS - 1;
    expect((await log.list('acct_a', { limit: 5 })).map((x) => x.id)).toEqual([e.id]);
    now += 1;
    expect(await log.list('acct_a', { limit: 5 })).toEqual([]);
    // moving the clock back shows it was dropped, not filtered
    now -= 10_000;
    expect(await log.list('acct_a', { limit: 5 })).toEqual([]);
  });
});

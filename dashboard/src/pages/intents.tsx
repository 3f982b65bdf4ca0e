import type { CombinedError } from '@urql/core';
import { useClient, useQuery } from '@urql/preact';
import { useContext, useEffect, useMemo, useState } from 'preact/hooks';
import type { LiveState } from '../client';
import { ErrorNotice, Loading, PageHeading, StatusBadge, Time, TxHash } from '../components';
import { LiveContext } from '../context';
import { INTENTS_QUERY, INTENT_UPDATES_SUBSCRIPTION, type Intent, type Step } from '../documents';
import { formatChain, formatDateTime, formatEnum, formatProtocol } from '../format';

const PAGE_SIZE = 50;

function time(iso: string): number {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? 0 : t;
}

/** The listed intents overlaid with the live ones (the newer copy of each wins), newest first. */
export function mergeIntents(listed: readonly Intent[], live: Readonly<Record<string, Intent>>): Intent[] {
  const byId = new Map<string, Intent>();
  for (const i of listed) byId.set(i.id, i);
  for (const i of Object.values(live)) {
    const known = byId.get(i.id);
    if (!known || time(i.updatedAt) >= time(known.updatedAt)) byId.set(i.id, i);
  }
  return [...byId.values()].sort((a, b) => time(b.createdAt) - time(a.createdAt) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

export function IntentsPage() {
  const client = useClient();
  const liveStatus = useContext(LiveContext);
  const [result, refetch] = useQuery({ query: INTENTS_QUERY, variables: { first: PAGE_SIZE } });
  const [live, setLive] = useState<Record<string, Intent>>({});
  const [liveState, setLiveState] = useState<LiveState>(liveStatus?.state ?? 'idle');
  const [liveError, setLiveError] = useState<CombinedError | null>(null);
  const [attempt, setAttempt] = useState(0);

  // Every change of any of the account's intents, as it happens.
  useEffect(() => {
    setLiveError(null);
    const sub = client.subscription(INTENT_UPDATES_SUBSCRIPTION, {}).subscribe((r) => {
      const intent = r.data?.viewerIntentUpdated;
      if (intent) {
        setLive((m) => {
          const prev = m[intent.id];
          if (prev && time(prev.updatedAt) > time(intent.updatedAt)) return m;
          return { ...m, [intent.id]: intent };
        });
      }
      if (r.error) setLiveError(r.error);
    });
    return () => sub.unsubscribe();
  }, [client, attempt]);

  // The socket's state; after a reconnection the list is read again, since
  // changes made while disconnected were not heard.
  useEffect(() => {
    if (!liveStatus) return;
    setLiveState(liveStatus.state);
    return liveStatus.subscribe((state, reconnected) => {
      setLiveState(state);
      if (reconnected) refetch({ requestPolicy: 'network-only' });
    });
  }, [liveStatus, refetch]);

  const listed = result.data?.viewer.account.intents;
  const intents = useMemo(() => (listed ? mergeIntents(listed, live) : null), [listed, live]);
  const reload = () => refetch({ requestPolicy: 'network-only' });

  return (
    <section aria-labelledby="page-title">
      <div class="page-header">
        <PageHeading>Intents</PageHeading>
        <LiveIndicator state={liveError ? 'closed' : liveState} />
      </div>
      <p class="muted page-intro">Lend, withdraw and bridge intents of all your wallets, newest first. Statuses update live.</p>
      {liveError && (
        <div class="notice notice-warning" role="alert">
          <p>Live updates stopped. The list may be out of date.</p>
          <button
            type="button"
            class="button button-secondary"
            onClick={() => {
              setAttempt((n) => n + 1);
              reload();
            }}
          >
            Reconnect
          </button>
        </div>
      )}
      {result.error && !intents && <ErrorNotice error={result.error} onRetry={reload} />}
      {!intents && result.fetching && <Loading label="Loading intents…" />}
      {intents && intents.length === 0 && <p class="empty-state">No intents yet. New ones appear here as your application creates them.</p>}
      {intents && intents.length > 0 && (
        <ul class="intent-list" aria-label="Intents">
          {intents.map((i) => (
            <IntentItem key={i.id} intent={i} />
          ))}
        </ul>
      )}
      {result.error && intents && <ErrorNotice error={result.error} onRetry={reload} />}
    </section>
  );
}

function LiveIndicator({ state }: { state: LiveState }) {
  const text =
    state === 'connected' ? 'Live' : state === 'connecting' || state === 'idle' ? 'Connecting…' : state === 'reconnecting' ? 'Reconnecting…' : 'Not live';
  return (
    <p class={`live live-${state}`} role="status">
      <span class="live-dot" aria-hidden="true" />
      <span class="visually-hidden">Live updates: </span>
      {text}
    </p>
  );
}

function where(i: Intent): string {
  if (i.action === 'BRIDGE') {
    const from = i.fromChain ? formatChain(i.fromChain) : '?';
    const to = i.toChain ? formatChain(i.toChain) : '?';
    return `${from} → ${to}`;
  }
  if (i.chain) return formatChain(i.chain);
  return i.action === 'LEND' ? 'best APY chain' : '—';
}

function IntentItem({ intent: i }: { intent: Intent }) {
  const steps = i.executionPlan?.steps ?? [];
  return (
    <li class={`intent intent-${i.status.toLowerCase()}`} data-intent-id={i.id}>
      <div class="intent-head">
        <StatusBadge status={i.status} />
        <div class="intent-summary">
          <p class="intent-title">
            <strong>{formatEnum(i.action)}</strong> {i.requestedAmount} {i.asset} <span class="muted">· {where(i)}</span>
          </p>
          <p class="muted small intent-meta">
            <code class="mono">{i.id}</code> · <Time iso={i.createdAt}>{formatDateTime(i.createdAt)}</Time>
          </p>
        </div>
      </div>
      {i.error && (
        <p class="intent-error">
          <code class="mono">{i.error.code}</code> {i.error.message}
        </p>
      )}
      <details class="intent-details">
        <summary>Details</summary>
        <dl class="facts">
          <div>
            <dt>Wallet</dt>
            <dd>
              <code class="mono">{i.walletId}</code>
            </dd>
          </div>
          {i.amount !== i.requestedAmount && (
            <div>
              <dt>Amount moved</dt>
              <dd>
                {i.amount} {i.asset}
              </dd>
            </div>
          )}
          {i.executionPlan && (
            <div>
              <dt>Strategy</dt>
              <dd>{formatEnum(i.executionPlan.strategy).toLowerCase()}</dd>
            </div>
          )}
          <div>
            <dt>Updated</dt>
            <dd>
              <Time iso={i.updatedAt}>{formatDateTime(i.updatedAt)}</Time>
            </dd>
          </div>
          {i.completedAt && (
            <div>
              <dt>Completed</dt>
              <dd>
                <Time iso={i.completedAt}>{formatDateTime(i.completedAt)}</Time>
              </dd>
            </div>
          )}
        </dl>
        {steps.length === 0 ? (
          <p class="muted small">{i.status === 'PENDING' || i.status === 'PLANNING' ? 'Not planned yet.' : 'No steps.'}</p>
        ) : (
          <div class="table-scroll">
            <table class="steps">
              <caption class="visually-hidden">Steps of intent {i.id}</caption>
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">Type</th>
                  <th scope="col">Chain</th>
                  <th scope="col">Amount</th>
                  <th scope="col">Status</th>
                  <th scope="col">Transaction</th>
                </tr>
              </thead>
              <tbody>
                {steps.map((s) => (
                  <StepRow key={s.index} step={s} asset={i.asset} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </details>
    </li>
  );
}

function stepType(s: Step): string {
  const t = s.__typename.replace(/Step$/, '').toLowerCase();
  return s.protocol ? `${t} (${formatProtocol(s.protocol)})` : t;
}

function StepRow({ step: s, asset }: { step: Step; asset: string }) {
  const chain = s.from && s.to ? `${formatChain(s.from)} → ${formatChain(s.to)}` : formatChain(s.chain);
  return (
    <tr data-step-index={s.index}>
      <td>{s.index + 1}</td>
      <td>{stepType(s)}</td>
      <td>{chain}</td>
      <td>
        {s.amount} {s.asset ?? asset}
      </td>
      <td>
        <StatusBadge kind="step" status={s.status} />
        {s.lastError && (
          <span class="small muted step-error">
            {' '}
            retrying: <code class="mono">{s.lastError.code}</code> {s.lastError.message}
          </span>
        )}
      </td>
      <td>{s.txHash ? <TxHash chain={s.chain} hash={s.txHash} /> : <span class="muted">—</span>}</td>
    </tr>
  );
}

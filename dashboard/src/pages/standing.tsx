import type { CombinedError } from '@urql/core';
import { useClient, useQuery } from '@urql/preact';
import { useRef, useState } from 'preact/hooks';
import { ConfirmDialog, ErrorNotice, Loading, PageHeading, StatusBadge, Time } from '../components';
import {
  DELETE_STANDING_MUTATION,
  PAUSE_STANDING_MUTATION,
  RESUME_STANDING_MUTATION,
  STANDING_INTENTS_QUERY,
  WALLETS_QUERY,
  type StandingIntent,
  type WalletSummary,
} from '../documents';
import { formatDateTime, formatReason, formatUsd } from '../format';
import { BacktestPanel } from './backtest';
import { CreateStandingForm } from './standingForm';
import { DecisionLog } from './standingDecisions';

/** An account has at most 100 standing intents: one page lists them all. */
const LIST_SIZE = 100;

/** "30-day horizon · gain ≥ $1.00 · ≤ 2 moves/day". */
export function ruleOf(s: Pick<StandingIntent, 'horizonDays' | 'minGainUsd' | 'maxMovesPerDay'>): string {
  return `${s.horizonDays}-day horizon · gain ≥ ${formatUsd(s.minGainUsd)} · ≤ ${s.maxMovesPerDay} moves/day`;
}

export function StandingPage() {
  const client = useClient();
  const [result, refetch] = useQuery({ query: STANDING_INTENTS_QUERY, variables: { first: LIST_SIZE } });
  const [walletsResult] = useQuery({ query: WALLETS_QUERY });
  const [creating, setCreating] = useState(false);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<StandingIntent | null>(null);
  const [busyId, setBusyId] = useState<string | null>(null);
  const [actionError, setActionError] = useState<CombinedError | Error | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const createButton = useRef<HTMLButtonElement>(null);

  const reload = () => refetch({ requestPolicy: 'network-only' });
  const wallets = walletsResult.data?.viewer.account.wallets ?? [];
  const standing = result.data?.standingIntents?.edges.map((e) => e.node);
  const selected = standing?.find((s) => s.id === selectedId) ?? null;
  const walletName = (id: string) => wallets.find((w) => w.id === id)?.userId ?? id;

  const setStatus = async (s: StandingIntent, to: 'pause' | 'resume') => {
    if (busyId) return;
    setBusyId(s.id);
    setActionError(null);
    const r =
      to === 'pause'
        ? await client.mutation(PAUSE_STANDING_MUTATION, { id: s.id }).toPromise()
        : await client.mutation(RESUME_STANDING_MUTATION, { id: s.id }).toPromise();
    const updated = r.data && ('pauseStandingIntent' in r.data ? r.data.pauseStandingIntent : r.data.resumeStandingIntent);
    if (r.error || !updated) setActionError(r.error ?? new Error('The standing intent could not be changed.'));
    else setAnnouncement(`${s.asset} of ${walletName(s.walletId)} ${to === 'pause' ? 'paused' : 'resumed'}.`);
    setBusyId(null);
    reload();
  };

  return (
    <section aria-labelledby="page-title">
      <div class="page-header">
        <PageHeading>Standing intents</PageHeading>
        {!creating && (
          <button type="button" class="button" ref={createButton} onClick={() => setCreating(true)}>
            New standing intent
          </button>
        )}
      </div>
      <p class="muted page-intro">
        Each keeps a wallet's asset lent in the market with the best net yield, moving it when the extra yield over the horizon beats every cost of the move by
        the threshold. Try a rule on the recorded rates with the backtest below.
      </p>

      {creating && (
        <CreateStandingForm
          wallets={wallets}
          onCancel={() => {
            setCreating(false);
            focusSoon(() => createButton.current);
          }}
          onCreated={(s) => {
            setCreating(false);
            setSelectedId(s.id);
            setAnnouncement(`Standing intent for ${s.asset} of ${walletName(s.walletId)} created.`);
            reload();
            focusSoon(() => createButton.current);
          }}
        />
      )}

      <p class="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
      {actionError && <ErrorNotice error={actionError} />}
      {result.error && !standing && <ErrorNotice error={result.error} onRetry={reload} />}
      {!standing && result.fetching && <Loading label="Loading standing intents…" />}
      {standing && (
        <StandingTable
          standing={standing}
          wallets={wallets}
          selectedId={selected?.id ?? null}
          busyId={busyId}
          onSelect={setSelectedId}
          onPause={(s) => setStatus(s, 'pause')}
          onResume={(s) => setStatus(s, 'resume')}
          onDelete={setDeleting}
        />
      )}
      {result.error && standing && <ErrorNotice error={result.error} onRetry={reload} />}

      {selected && <DecisionLog key={selected.id} standing={selected} walletName={walletName(selected.walletId)} />}

      <BacktestPanel />

      {deleting && (
        <ConfirmDialog
          id="delete-standing"
          title="Delete standing intent"
          actionLabel="Delete"
          onCancel={() => setDeleting(null)}
          onConfirm={async () => {
            const r = await client.mutation(DELETE_STANDING_MUTATION, { id: deleting.id }).toPromise();
            if (r.error || !r.data?.deleteStandingIntent) throw r.error ?? new Error('The standing intent could not be deleted.');
            if (selectedId === deleting.id) setSelectedId(null);
            setAnnouncement(`Standing intent for ${deleting.asset} of ${walletName(deleting.walletId)} deleted.`);
            setDeleting(null);
            reload();
          }}
        >
          Delete the standing intent keeping {deleting.asset} of <code class="mono">{walletName(deleting.walletId)}</code> lent, and its decisions? Its funds
          stay where they are; a move already running runs to its end.
        </ConfirmDialog>
      )}
    </section>
  );
}

function focusSoon(target: () => HTMLElement | null | undefined): void {
  window.setTimeout(() => (target() ?? document.querySelector<HTMLElement>('main h1'))?.focus(), 0);
}

function StandingTable({
  standing,
  wallets,
  selectedId,
  busyId,
  onSelect,
  onPause,
  onResume,
  onDelete,
}: {
  standing: StandingIntent[];
  wallets: WalletSummary[];
  selectedId: string | null;
  busyId: string | null;
  onSelect: (id: string) => void;
  onPause: (s: StandingIntent) => void;
  onResume: (s: StandingIntent) => void;
  onDelete: (s: StandingIntent) => void;
}) {
  return (
    <div class="table-scroll" tabIndex={0} role="region" aria-label="Standing intents table">
      <table>
        <thead>
          <tr>
            <th scope="col">Wallet</th>
            <th scope="col">Asset</th>
            <th scope="col" class="num">
              Amount
            </th>
            <th scope="col">Rule</th>
            <th scope="col">Status</th>
            <th scope="col">Last decision</th>
            <th scope="col">
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {standing.length === 0 && (
            <tr>
              <td colSpan={7} class="empty">
                No standing intents yet.
              </td>
            </tr>
          )}
          {standing.map((s) => {
            const wallet = wallets.find((w) => w.id === s.walletId);
            const last = s.decisions.edges[0]?.node;
            const name = `standing-name-${s.id}`;
            return (
              <tr key={s.id} data-standing-id={s.id} aria-current={selectedId === s.id ? 'true' : undefined}>
                <td class="wrap-anywhere">
                  <span id={name}>
                    {wallet?.userId ?? <code class="mono">{s.walletId}</code>}
                    <span class="visually-hidden"> · {s.asset}</span>
                  </span>
                </td>
                <td>{s.asset}</td>
                <td class="num">{s.amount ?? <span class="muted">all</span>}</td>
                <td class="small">{ruleOf(s)}</td>
                <td>
                  <StatusBadge status={s.status} />
                </td>
                <td>
                  {last ? (
                    <span data-last-outcome={last.outcome.toLowerCase()}>
                      {last.outcome === 'REBALANCED' ? 'moved' : `skipped: ${formatReason(last.reason ?? 'unknown')}`}
                      <span class="muted small">
                        {' '}
                        · <Time iso={last.sampleAt}>{formatDateTime(last.sampleAt)}</Time>
                      </span>
                    </span>
                  ) : (
                    <span class="muted">none yet</span>
                  )}
                </td>
                <td class="actions">
                  <div class="row-actions">
                    <button
                      type="button"
                      class="button button-secondary button-small"
                      aria-describedby={name}
                      aria-pressed={selectedId === s.id}
                      onClick={() => onSelect(s.id)}
                    >
                      Decisions
                    </button>
                    {s.status === 'ACTIVE' ? (
                      <button
                        type="button"
                        class="button button-secondary button-small"
                        aria-describedby={name}
                        disabled={busyId === s.id}
                        aria-busy={busyId === s.id}
                        onClick={() => onPause(s)}
                      >
                        Pause
                      </button>
                    ) : (
                      <button
                        type="button"
                        class="button button-secondary button-small"
                        aria-describedby={name}
                        disabled={busyId === s.id}
                        aria-busy={busyId === s.id}
                        onClick={() => onResume(s)}
                      >
                        Resume
                      </button>
                    )}
                    <button type="button" class="button button-danger-outline button-small" aria-describedby={name} onClick={() => onDelete(s)}>
                      Delete
                    </button>
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

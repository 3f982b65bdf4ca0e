import { useQuery } from '@urql/preact';
import { useState } from 'preact/hooks';
import { ErrorNotice, Loading, StatusBadge, Time } from '../components';
import { STANDING_DECISIONS_QUERY, type StandingDecision, type StandingIntent } from '../documents';
import { formatApy, formatChain, formatDateTime, formatMarket, formatProtocol, formatReason, formatUsd } from '../format';

const PAGE_SIZE = 20;

/** Where a move's funds come from: "aave-v3 on Base Sepolia (4.10%)", idle funds as "idle on Base Sepolia". */
function sourceOf(s: StandingDecision['numbers']['sources'][number]): string {
  const where = s.protocol ? `${formatProtocol(s.protocol)} on ${formatChain(s.chain)}` : `idle on ${formatChain(s.chain)}`;
  return `${where} (${formatApy(s.apy)})`;
}

/**
 * A standing intent's decisions, newest first, a page at a time: the
 * connection's endCursor asks for the next (older) page; the cursors of the
 * pages seen are kept so that "Newer" goes back without a second kind of
 * cursor.
 */
export function DecisionLog({ standing, walletName }: { standing: StandingIntent; walletName: string }) {
  // cursors[i] is the `after` of page i (null: the newest page).
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const after = cursors[cursors.length - 1] ?? null;
  const [result, refetch] = useQuery({
    query: STANDING_DECISIONS_QUERY,
    variables: { id: standing.id, first: PAGE_SIZE, after },
    requestPolicy: 'network-only',
  });
  const connection = result.data?.standingIntent?.decisions;
  const decisions = connection?.edges.map((e) => e.node);
  const page = cursors.length;

  return (
    <section class="delivery-log" aria-labelledby="decision-log-title">
      <div class="page-header">
        <h2 id="decision-log-title" class="section-title">
          Decisions
        </h2>
        <button type="button" class="button button-secondary" onClick={() => refetch({ requestPolicy: 'network-only' })}>
          Refresh
        </button>
      </div>
      <p class="muted delivery-log-url">
        Decisions on {standing.asset} of <code class="mono">{walletName}</code>, newest first: one per rate sample at most, moved or not, with the numbers
        behind it.
      </p>
      {result.error && !connection && <ErrorNotice error={result.error} onRetry={() => refetch({ requestPolicy: 'network-only' })} />}
      {!connection && result.fetching && <Loading label="Loading decisions…" />}
      {decisions && (
        <div class="table-scroll" tabIndex={0} role="region" aria-label="Decisions table">
          <table>
            <thead>
              <tr>
                <th scope="col">Sample</th>
                <th scope="col">Outcome</th>
                <th scope="col">From → to</th>
                <th scope="col" class="num">
                  Amount
                </th>
                <th scope="col" class="num">
                  Costs
                </th>
                <th scope="col" class="num">
                  Gain
                </th>
                <th scope="col" class="num">
                  Net
                </th>
                <th scope="col" class="num">
                  Threshold
                </th>
              </tr>
            </thead>
            <tbody>
              {decisions.length === 0 && (
                <tr>
                  <td colSpan={8} class="empty">
                    {page === 1 ? 'No decisions yet: the first comes with the next rate sample.' : 'No older decisions.'}
                  </td>
                </tr>
              )}
              {decisions.map((d) => (
                <DecisionRow key={d.id} d={d} asset={standing.asset} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {connection && (page > 1 || connection.pageInfo.hasNextPage) && (
        <nav class="form-actions" aria-label="Decision pages">
          <button type="button" class="button button-secondary button-small" disabled={page === 1} onClick={() => setCursors((c) => c.slice(0, -1))}>
            Newer
          </button>
          <span class="muted small pager-label">Page {page}</span>
          <button
            type="button"
            class="button button-secondary button-small"
            disabled={!connection.pageInfo.hasNextPage || !connection.pageInfo.endCursor}
            onClick={() => setCursors((c) => [...c, connection.pageInfo.endCursor])}
          >
            Older
          </button>
        </nav>
      )}
    </section>
  );
}

function DecisionRow({ d, asset }: { d: StandingDecision; asset: string }) {
  const n = d.numbers;
  const costs = n.costs;
  const costTitle = `withdraw gas ${formatUsd(costs.withdrawGasUsd)} · bridge fee ${formatUsd(costs.bridgeFeeUsd)} · bridge gas ${formatUsd(costs.bridgeGasUsd)} · deposit gas ${formatUsd(costs.depositGasUsd)}`;
  return (
    <tr data-decision-id={d.id} data-outcome={d.outcome.toLowerCase()}>
      <td>
        <Time iso={d.sampleAt}>{formatDateTime(d.sampleAt)}</Time>
        {d.trigger === 'FUNDS_ARRIVED' && <div class="muted small">funds arrived</div>}
      </td>
      <td class="wrap-anywhere">
        <StatusBadge status={d.outcome} label={d.outcome === 'REBALANCED' ? 'moved' : 'skipped'} />
        {d.reason && <div class="small">{formatReason(d.reason)}</div>}
        {d.rule && (
          <div class="small muted">
            rule <code class="mono">{d.rule}</code>
          </div>
        )}
        {d.intentId && (
          <div class="small muted">
            <code class="mono">{d.intentId}</code>
          </div>
        )}
      </td>
      <td class="wrap-anywhere small">
        {n.sources.length > 0 ? n.sources.map(sourceOf).join(', ') : <span class="muted">—</span>}
        {' → '}
        {n.target ? `${formatMarket(n.target)} (${formatApy(n.target.apy)})` : <span class="muted">—</span>}
      </td>
      <td class="num">{n.amount === '0' ? <span class="muted">0</span> : `${n.amount} ${asset}`}</td>
      <td class="num" title={costTitle}>
        {formatUsd(costs.totalUsd)}
      </td>
      <td class="num">{formatUsd(n.gainUsd)}</td>
      <td class="num">{formatUsd(n.netGainUsd)}</td>
      <td class="num">{formatUsd(n.thresholdUsd)}</td>
    </tr>
  );
}

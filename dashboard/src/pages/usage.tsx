import { useQuery } from '@urql/preact';
import { useEffect } from 'preact/hooks';
import { ErrorNotice, Loading, PageHeading, Time } from '../components';
import { USAGE_QUERY, type AccountUsage } from '../documents';
import { formatCount, formatDate, formatDateTime, formatEnum, formatShortTime, formatTime, formatUsedOf } from '../format';

const REFRESH_MS = 10_000;

export function UsagePage() {
  const [result, refetch] = useQuery({ query: USAGE_QUERY });

  // Read again every 10 s while the page is shown (and the tab visible).
  useEffect(() => {
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible') refetch({ requestPolicy: 'network-only' });
    }, REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [refetch]);

  const account = result.data?.viewer.account;
  return (
    <section aria-labelledby="page-title">
      <div class="page-header">
        <PageHeading>Usage</PageHeading>
        {account && <p class="muted small">Refreshes every 10 seconds</p>}
      </div>
      {result.error && !account && <ErrorNotice error={result.error} onRetry={() => refetch({ requestPolicy: 'network-only' })} />}
      {!account && result.fetching && <Loading label="Loading usage…" />}
      {account && <UsageDetails plan={account.plan} usage={account.usage} />}
      {result.error && account && <ErrorNotice error={result.error} />}
    </section>
  );
}

function UsageDetails({ plan, usage }: { plan: string; usage: AccountUsage }) {
  const { credits, wallets, rateWindow } = usage;
  return (
    <>
      <div class="cards">
        <div class="card">
          <h2 class="card-title">Plan</h2>
          <p class="card-value">{formatEnum(plan)}</p>
          <p class="muted small">{formatCount(usage.requestsPerMinute)} requests per minute</p>
        </div>
        <div class="card">
          <h2 class="card-title">Credits this month</h2>
          <p class="card-value">{formatUsedOf(credits.used, credits.limit)}</p>
          <Meter used={credits.used} limit={credits.limit} />
          <p class="muted small">
            Resets on <Time iso={credits.resetsAt}>{formatDate(credits.resetsAt)}</Time>
          </p>
        </div>
        <div class="card">
          <h2 class="card-title">Wallets</h2>
          <p class="card-value">{formatUsedOf(wallets.count, wallets.limit)}</p>
          <Meter used={wallets.count} limit={wallets.limit} />
        </div>
        <div class="card">
          <h2 class="card-title">This minute</h2>
          <p class="card-value">
            {formatUsedOf(rateWindow.used, rateWindow.limit)} <span class="unit">requests</span>
          </p>
          <Meter used={rateWindow.used} limit={rateWindow.limit} />
          <p class="muted small">
            {formatCount(rateWindow.remaining)} remaining · resets at <Time iso={rateWindow.resetsAt}>{formatTime(rateWindow.resetsAt)}</Time>
          </p>
        </div>
      </div>
      <RequestsChart history={usage.history} />
    </>
  );
}

/** A thin bar of used over limit; decorative (the numbers are in the text beside it). */
function Meter({ used, limit }: { used: number; limit: number | null }) {
  if (limit === null || limit <= 0) return null;
  const ratio = Math.min(1, Math.max(0, used / limit));
  const level = ratio >= 0.9 ? 'meter-high' : ratio >= 0.7 ? 'meter-mid' : 'meter-low';
  return (
    <svg class={`meter ${level}`} viewBox="0 0 100 4" preserveAspectRatio="none" aria-hidden="true" focusable="false">
      <rect class="meter-track" x="0" y="0" width="100" height="4" rx="2" />
      <rect class="meter-fill" x="0" y="0" width={(ratio * 100).toFixed(2)} height="4" rx="2" />
    </svg>
  );
}

const CHART_W = 600;
const CHART_H = 160;

function RequestsChart({ history }: { history: { minute: string; requests: number }[] }) {
  const peak = history.reduce((m, p) => Math.max(m, p.requests), 0);
  const total = history.reduce((s, p) => s + p.requests, 0);
  const scale = peak > 0 ? peak : 1;
  const slot = history.length > 0 ? CHART_W / history.length : CHART_W;
  const gap = Math.min(2, slot * 0.2);
  const first = history[0];
  const last = history[history.length - 1];
  const label = `Requests per minute, last ${history.length} minutes, peak ${peak}`;

  return (
    <section class="chart-card card" aria-labelledby="chart-title">
      <div class="chart-header">
        <h2 id="chart-title" class="card-title">
          Requests per minute, last hour
        </h2>
        <p class="muted small">
          Peak {formatCount(peak)} · total {formatCount(total)}
        </p>
      </div>
      <div class="chart-body">
        <div class="chart-axis" aria-hidden="true">
          <span>{formatCount(peak)}</span>
          <span>0</span>
        </div>
        <svg class="chart" role="img" aria-label={label} viewBox={`0 0 ${CHART_W} ${CHART_H}`} preserveAspectRatio="none">
          <line class="chart-baseline" x1="0" y1={CHART_H - 0.5} x2={CHART_W} y2={CHART_H - 0.5} />
          {history.map((p, i) => {
            const h = p.requests === 0 ? 0 : Math.max(2, (p.requests / scale) * (CHART_H - 4));
            return (
              <rect
                key={p.minute}
                class="chart-bar"
                x={(i * slot + gap / 2).toFixed(2)}
                y={(CHART_H - h).toFixed(2)}
                width={(slot - gap).toFixed(2)}
                height={h.toFixed(2)}
              >
                <title>{`${formatShortTime(p.minute)}: ${p.requests} requests`}</title>
              </rect>
            );
          })}
        </svg>
      </div>
      {first && last && (
        <div class="chart-xaxis muted small" aria-hidden="true">
          <span>{formatShortTime(first.minute)}</span>
          <span>{formatShortTime(last.minute)}</span>
        </div>
      )}
      <details class="chart-table">
        <summary>Show the numbers</summary>
        <div class="table-scroll">
          <table>
            <caption class="visually-hidden">Requests per minute, oldest first</caption>
            <thead>
              <tr>
                <th scope="col">Minute</th>
                <th scope="col">Requests</th>
              </tr>
            </thead>
            <tbody>
              {history.map((p) => (
                <tr key={p.minute}>
                  <td>
                    <Time iso={p.minute}>{formatDateTime(p.minute)}</Time>
                  </td>
                  <td>{formatCount(p.requests)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </section>
  );
}

import { useQuery } from '@urql/preact';
import { useState } from 'preact/hooks';
import { ErrorNotice, Loading, PageHeading } from '../components';
import { TOKEN_ASSETS, YIELDS_QUERY, type YieldRate, type YieldReport } from '../documents';
import { formatApy, formatChain, formatProtocol } from '../format';

const ALL = 'ALL';

function sameMarket(a: YieldRate, b: YieldRate): boolean {
  return a.chain === b.chain && a.protocol === b.protocol && a.asset === b.asset;
}

export function YieldsPage() {
  const [asset, setAsset] = useState<string>('USDC');
  const [result, refetch] = useQuery({ query: YIELDS_QUERY, variables: { asset: asset === ALL ? null : asset } });
  const report = result.data?.yields;
  const reload = () => refetch({ requestPolicy: 'network-only' });

  return (
    <section aria-labelledby="page-title">
      <div class="page-header">
        <PageHeading>Yields</PageHeading>
        <div class="field field-inline">
          <label for="yield-asset">Asset</label>
          <select id="yield-asset" value={asset} onChange={(e) => setAsset(e.currentTarget.value)}>
            {TOKEN_ASSETS.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
            <option value={ALL}>All assets</option>
          </select>
        </div>
      </div>
      <p class="muted page-intro">Supply APY of the lending markets on every chain, as the planner sees them.</p>
      {result.error && !report && <ErrorNotice error={result.error} onRetry={reload} />}
      {!report && result.fetching && <Loading label="Loading yields…" />}
      {report && <YieldChart report={report} />}
      {result.error && report && <ErrorNotice error={result.error} onRetry={reload} />}
    </section>
  );
}

function YieldChart({ report }: { report: YieldReport }) {
  const rates = [...report.rates].sort((a, b) => b.apy - a.apy);
  const best = report.best;
  const max = rates.reduce((m, r) => Math.max(m, r.apy), best?.apy ?? 0);
  const scale = max > 0 ? max : 1;

  if (rates.length === 0) return <p class="empty-state">No markets report a yield for this asset.</p>;
  return (
    <>
      {best && (
        <div class="callout">
          <p>
            <strong>Highest APY: {formatApy(best.apy)}</strong> — {formatProtocol(best.protocol)} on {formatChain(best.chain)} ({best.asset})
          </p>
          {best.reasoning && <p class="muted small">{best.reasoning}</p>}
        </div>
      )}
      <figure class="card yield-chart">
        <figcaption class="card-title">Supply APY by market</figcaption>
        <ul class="bars">
          {rates.map((r) => {
            const isBest = best ? sameMarket(r, best) : false;
            return (
              <li key={`${r.chain}-${r.protocol}-${r.asset}`} class={isBest ? 'bar-row bar-best' : 'bar-row'} data-best={isBest ? 'true' : undefined}>
                <span class="bar-label">
                  {formatChain(r.chain)} · {formatProtocol(r.protocol)} · {r.asset}
                  {isBest && (
                    <>
                      {' '}
                      <span class="badge badge-best">Best</span>
                    </>
                  )}
                </span>
                <svg class="bar" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true" focusable="false">
                  <rect class="bar-track" x="0" y="0" width="100" height="10" rx="1" />
                  <rect class="bar-fill" x="0" y="0" width={Math.max(0.5, (Math.max(0, r.apy) / scale) * 100).toFixed(2)} height="10" rx="1" />
                </svg>
                <span class="bar-value">{formatApy(r.apy)}</span>
              </li>
            );
          })}
        </ul>
      </figure>
    </>
  );
}

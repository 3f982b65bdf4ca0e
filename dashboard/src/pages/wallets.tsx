import { useQuery } from '@urql/preact';
import { ErrorNotice, Hex, Loading, PageHeading, Time } from '../components';
import { WALLETS_QUERY } from '../documents';
import { formatChain, formatDateTime, formatUsd } from '../format';

export function WalletsPage() {
  const [result, refetch] = useQuery({ query: WALLETS_QUERY });
  const wallets = result.data?.viewer.account.wallets;
  const reload = () => refetch({ requestPolicy: 'network-only' });

  return (
    <section aria-labelledby="page-title">
      <div class="page-header">
        <PageHeading>Wallets</PageHeading>
      </div>
      <p class="muted page-intro">The non-custodial wallets your application created for its users, one address on every chain.</p>
      {result.error && !wallets && <ErrorNotice error={result.error} onRetry={reload} />}
      {!wallets && result.fetching && <Loading label="Loading wallets…" />}
      {wallets && (
        <div class="table-scroll" tabIndex={0} role="region" aria-label="Wallets table">
          <table>
            <thead>
              <tr>
                <th scope="col">User ID</th>
                <th scope="col">Address</th>
                <th scope="col">Chains</th>
                <th scope="col">Created</th>
                <th scope="col" class="num">
                  Total value
                </th>
              </tr>
            </thead>
            <tbody>
              {wallets.length === 0 && (
                <tr>
                  <td colSpan={5} class="empty">
                    No wallets yet. Your application creates them through the API.
                  </td>
                </tr>
              )}
              {wallets.map((w) => (
                <tr key={w.id} data-wallet-id={w.id}>
                  <td class="wrap-anywhere">{w.userId}</td>
                  <td>
                    <Hex value={w.address} />
                  </td>
                  <td>
                    <ul class="chips">
                      {w.chains.map((c) => (
                        <li key={c} class="chip">
                          {formatChain(c)}
                        </li>
                      ))}
                    </ul>
                  </td>
                  <td>
                    <Time iso={w.createdAt}>{formatDateTime(w.createdAt)}</Time>
                  </td>
                  <td class="num" title={w.totalValueUsd === null ? 'Balances could not be read' : undefined}>
                    {formatUsd(w.totalValueUsd)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {result.error && wallets && <ErrorNotice error={result.error} onRetry={reload} />}
    </section>
  );
}

import type { CombinedError } from '@urql/core';
import { useClient } from '@urql/preact';
import type { ComponentChildren, TargetedSubmitEvent } from 'preact';
import { useState } from 'preact/hooks';
import { LineChart, type ChartMarker } from '../chart';
import { ErrorNotice, Time } from '../components';
import { SIMULATE_STANDING_MUTATION, TOKEN_ASSETS, type Simulation, type SimulateVariables } from '../documents';
import { fieldIssues } from '../fieldIssues';
import { formatApy, formatCount, formatDateTime, formatMarket, formatUsd } from '../format';
import { NumberField, RuleFields, readNumber } from './standingForm';

const DAY_MS = 86_400_000;
/** The windows offered: the history is kept 90 days. */
const WINDOWS = [7, 30, 90] as const;
const FIELDS = ['asset', 'amount', 'horizonDays', 'minGainUsd', 'maxMovesPerDay', 'from', 'to'] as const;
type Field = 'amount' | 'horizonDays' | 'minGainUsd' | 'maxMovesPerDay';

/** The last `days` days up to the current whole minute (samples are keyed by minute; the window's end is exclusive). */
export function windowOf(days: number, now: number): { from: string; to: string } {
  const to = Math.floor(now / 60_000) * 60_000;
  return { from: new Date(to - days * DAY_MS).toISOString(), to: new Date(to).toISOString() };
}

/**
 * The backtest: a rule replayed over the recorded APY history through the
 * decision the service takes live (simulateStandingIntent), drawn as the
 * markets' APYs with the moves it made, and its cumulative earnings against
 * staying in the market the funds started in.
 */
export function BacktestPanel() {
  const client = useClient();
  const [asset, setAsset] = useState<string>('USDC');
  const [days, setDays] = useState<number>(30);
  const [values, setValues] = useState<Record<Field, string>>({ amount: '10000', horizonDays: '', minGainUsd: '', maxMovesPerDay: '' });
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [error, setError] = useState<CombinedError | Error | null>(null);
  const [busy, setBusy] = useState(false);
  // The answer with the asset it was asked for (the select may change afterwards).
  const [result, setResult] = useState<{ simulation: Simulation; asset: string } | null>(null);

  const set = (field: Field) => (v: string) => setValues((all) => ({ ...all, [field]: v }));

  const run = async (event: TargetedSubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const local: Partial<Record<string, string>> = {};
    const vars: SimulateVariables = { asset, amount: values.amount.trim(), ...windowOf(days, Date.now()) };
    if (vars.amount === '') local.amount = 'amount is required';
    for (const [field, whole] of [
      ['horizonDays', true],
      ['minGainUsd', false],
      ['maxMovesPerDay', true],
    ] as const) {
      const r = readNumber(values[field], field, whole);
      if (r.error) local[field] = r.error;
      else if (r.value !== undefined) vars[field] = r.value;
    }
    setErrors(local);
    setError(null);
    if (Object.keys(local).length > 0) return;
    setBusy(true);
    const r = await client.mutation(SIMULATE_STANDING_MUTATION, vars, { requestPolicy: 'network-only' }).toPromise();
    setBusy(false);
    const answer = r.data?.simulateStandingIntent;
    if (answer && !r.error) {
      setResult({ simulation: answer, asset: vars.asset });
      return;
    }
    const { byField, other } = fieldIssues(r.error, FIELDS);
    setErrors(byField);
    if (Object.keys(byField).length === 0 || other.length > 0) setError(r.error ?? new Error('The backtest could not be run.'));
  };

  return (
    <section class="backtest" aria-labelledby="backtest-title">
      <h2 id="backtest-title" class="section-title">
        Backtest
      </h2>
      <p class="muted">
        Replays the recorded lending rates through the same decision the service takes live, and compares the rule with staying in the first market and in
        today's best.
      </p>
      <form class="panel backtest-form" onSubmit={run} aria-labelledby="backtest-title" noValidate>
        <div class="field-row">
          <div class="field">
            <label for="backtest-asset">Asset</label>
            <select id="backtest-asset" value={asset} onChange={(e) => setAsset(e.currentTarget.value)}>
              {TOKEN_ASSETS.map((a) => (
                <option key={a} value={a}>
                  {a}
                </option>
              ))}
            </select>
          </div>
          <NumberField id="backtest-amount" label="Amount" value={values.amount} error={errors.amount} decimal onInput={set('amount')} />
          <div class="field">
            <label for="backtest-window">Window</label>
            <select
              id="backtest-window"
              value={String(days)}
              aria-invalid={errors.from || errors.to ? 'true' : undefined}
              onChange={(e) => setDays(Number(e.currentTarget.value))}
            >
              {WINDOWS.map((d) => (
                <option key={d} value={String(d)}>
                  Last {d} days
                </option>
              ))}
            </select>
            {(errors.from || errors.to) && <span class="field-error">{errors.from ?? errors.to}</span>}
          </div>
        </div>
        <RuleFields idPrefix="backtest" values={values} errors={errors} set={set} />
        {error && <ErrorNotice error={error} />}
        <div class="form-actions">
          <button type="submit" class="button" disabled={busy} aria-busy={busy}>
            Run backtest
          </button>
        </div>
      </form>
      <p class="visually-hidden" role="status" aria-live="polite">
        {result ? `Backtest done: ${result.simulation.moves.length} moves over ${result.simulation.samples} samples.` : ''}
      </p>
      {result && <BacktestResult result={result.simulation} asset={result.asset} />}
    </section>
  );
}

/** One summary figure, its exact value in data-value. */
function Figure({ name, label, value, children }: { name: string; label: string; value: number; children: ComponentChildren }) {
  return (
    <div class="card" data-summary={name} data-value={String(value)}>
      <span class="card-title">{label}</span>
      <p class="card-value">{children}</p>
    </div>
  );
}

function BacktestResult({ result: r, asset }: { result: Simulation; asset: string }) {
  const ms = (at: string) => Date.parse(at);
  const markers: ChartMarker[] = r.moves.map((m) => ({
    at: ms(m.at),
    label: `${formatDateTime(m.at)}: ${formatMarket(m.from)} (${formatApy(m.from.apy)}) → ${formatMarket(m.to)} (${formatApy(m.to.apy)}), ${m.amount} ${asset}, cost ${formatUsd(m.costUsd)}`,
  }));
  const first = r.firstMarket.market ? formatMarket(r.firstMarket.market) : 'the first market';

  if (r.samples === 0) {
    return <p class="empty-state">No rates were recorded for {asset} in this window.</p>;
  }
  return (
    <div class="backtest-result" data-from={r.from} data-to={r.to}>
      <p class="muted small">
        <Time iso={r.from}>{formatDateTime(r.from)}</Time> – <Time iso={r.to}>{formatDateTime(r.to)}</Time> · {formatCount(r.samples)} samples
      </p>
      <div class="cards backtest-summary">
        <Figure name="strategy-net" label="Strategy, net" value={r.strategy.netUsd}>
          {formatUsd(r.strategy.netUsd)}
        </Figure>
        <Figure name="todays-best-net" label={`Today's best${r.todaysBest.market ? `: ${formatMarket(r.todaysBest.market)}` : ''}`} value={r.todaysBest.netUsd}>
          {formatUsd(r.todaysBest.netUsd)}
        </Figure>
        <Figure name="first-market-net" label={`First market: ${first}`} value={r.firstMarket.netUsd}>
          {formatUsd(r.firstMarket.netUsd)}
        </Figure>
        <Figure name="moves" label="Moves" value={r.moves.length}>
          {formatCount(r.moves.length)}
        </Figure>
        <Figure name="costs" label="Costs of the moves" value={r.strategy.costsUsd}>
          {formatUsd(r.strategy.costsUsd)}
        </Figure>
      </div>
      <div class="card chart-card">
        <LineChart
          kind="apy"
          title={`Supply APY of the ${asset} markets`}
          description={`One line per market (${r.series.length}), ${formatCount(r.samples)} samples; the strategy's ${r.moves.length} moves are marked on the time axis.`}
          series={r.series.map((s) => ({ label: formatMarket(s), points: s.points.map(([at, apy]) => [ms(at), apy] as const) }))}
          markers={markers}
          formatValue={(v) => formatApy(v)}
        />
        <LineChart
          kind="earnings"
          title="Cumulative earnings, USD"
          description={`The strategy net of its moves' costs against staying in ${first} all along.`}
          series={[
            { label: 'Strategy (net of costs)', points: r.cumulative.map(([at, strategy]) => [ms(at), strategy] as const) },
            { label: `Stay in ${first}`, points: r.cumulative.map(([at, , stay]) => [ms(at), stay] as const) },
          ]}
          markers={markers}
          formatValue={(v) => formatUsd(v)}
        />
      </div>
      {r.moves.length > 0 && (
        <div class="table-scroll" tabIndex={0} role="region" aria-label="Backtest moves table">
          <table>
            <caption class="visually-hidden">Moves the rule made, oldest first</caption>
            <thead>
              <tr>
                <th scope="col">Sample</th>
                <th scope="col">From → to</th>
                <th scope="col" class="num">
                  Amount
                </th>
                <th scope="col" class="num">
                  Cost
                </th>
                <th scope="col" class="num">
                  Net gain over horizon
                </th>
              </tr>
            </thead>
            <tbody>
              {r.moves.map((m) => (
                <tr key={m.at} data-move-at={m.at}>
                  <td>
                    <Time iso={m.at}>{formatDateTime(m.at)}</Time>
                  </td>
                  <td class="wrap-anywhere">
                    {formatMarket(m.from)} ({formatApy(m.from.apy)}) → {formatMarket(m.to)} ({formatApy(m.to.apy)})
                  </td>
                  <td class="num">
                    {m.amount} {asset}
                  </td>
                  <td class="num">{formatUsd(m.costUsd)}</td>
                  <td class="num">{formatUsd(m.netGainUsd)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

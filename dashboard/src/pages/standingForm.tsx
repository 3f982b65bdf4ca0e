import type { CombinedError } from '@urql/core';
import { useClient } from '@urql/preact';
import type { TargetedSubmitEvent } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ErrorNotice } from '../components';
import { CREATE_STANDING_MUTATION, TOKEN_ASSETS, type CreateStandingVariables, type StandingIntent, type WalletSummary } from '../documents';
import { fieldIssues } from '../fieldIssues';

const FIELDS = ['walletId', 'asset', 'amount', 'horizonDays', 'minGainUsd', 'maxMovesPerDay'] as const;
type Field = (typeof FIELDS)[number];

/** The rule's defaults, as the API applies them when a field is left out (shown as placeholders). */
export const RULE_DEFAULTS = { horizonDays: 30, minGainUsd: 1, maxMovesPerDay: 2 } as const;

/**
 * A number the API takes, or why it cannot be sent: empty is "use the
 * default", anything that is not a number is named here (GraphQL would refuse
 * the whole operation for it); its range is the API's to judge.
 */
export function readNumber(raw: string, name: string, whole: boolean): { value?: number; error?: string } {
  const text = raw.trim();
  if (text === '') return {};
  const n = Number(text);
  if (!Number.isFinite(n)) return { error: `${name} must be a number` };
  if (whole && !Number.isInteger(n)) return { error: `${name} must be a whole number` };
  return { value: n };
}

/** One labelled input with its error below it, tied together for assistive technology. */
export function NumberField({
  id,
  label,
  hint,
  value,
  error,
  placeholder,
  onInput,
  decimal = false,
}: {
  id: string;
  label: string;
  hint?: string;
  value: string;
  error?: string | undefined;
  placeholder?: string;
  onInput: (v: string) => void;
  decimal?: boolean;
}) {
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {hint && (
        <span id={`${id}-hint`} class="muted small">
          {hint}
        </span>
      )}
      <input
        id={id}
        type="text"
        inputMode={decimal ? 'decimal' : 'numeric'}
        autoComplete="off"
        value={value}
        placeholder={placeholder}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={described || undefined}
        onInput={(e) => onInput(e.currentTarget.value)}
      />
      {error && (
        <span id={`${id}-error`} class="field-error">
          {error}
        </span>
      )}
    </div>
  );
}

type RuleField = 'horizonDays' | 'minGainUsd' | 'maxMovesPerDay';

/** The moving rule's three fields, as the create form and the backtest ask them (empty: the service's default, shown as the placeholder). */
export function RuleFields({
  idPrefix,
  values,
  errors,
  set,
}: {
  idPrefix: string;
  values: Record<RuleField, string>;
  errors: Partial<Record<string, string>>;
  set: (field: RuleField) => (v: string) => void;
}) {
  return (
    <div class="field-row">
      <NumberField
        id={`${idPrefix}-horizon`}
        label="Horizon (days)"
        value={values.horizonDays}
        error={errors.horizonDays}
        placeholder={String(RULE_DEFAULTS.horizonDays)}
        onInput={set('horizonDays')}
      />
      <NumberField
        id={`${idPrefix}-min-gain`}
        label="Minimum gain (USD)"
        value={values.minGainUsd}
        error={errors.minGainUsd}
        placeholder={String(RULE_DEFAULTS.minGainUsd)}
        decimal
        onInput={set('minGainUsd')}
      />
      <NumberField
        id={`${idPrefix}-moves`}
        label="Moves per day"
        value={values.maxMovesPerDay}
        error={errors.maxMovesPerDay}
        placeholder={String(RULE_DEFAULTS.maxMovesPerDay)}
        onInput={set('maxMovesPerDay')}
      />
    </div>
  );
}

export function CreateStandingForm({
  wallets,
  onCreated,
  onCancel,
}: {
  wallets: WalletSummary[];
  onCreated: (s: StandingIntent) => void;
  onCancel: () => void;
}) {
  const client = useClient();
  const [values, setValues] = useState<Record<Field, string>>({
    walletId: wallets[0]?.id ?? '',
    asset: 'USDC',
    amount: '',
    horizonDays: '',
    minGainUsd: '',
    maxMovesPerDay: '',
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [error, setError] = useState<CombinedError | Error | string | null>(null);
  const [busy, setBusy] = useState(false);
  const first = useRef<HTMLSelectElement>(null);

  useEffect(() => first.current?.focus(), []);
  // The wallets arrive after the form may have opened.
  useEffect(() => {
    if (!values.walletId && wallets[0]) setValues((v) => ({ ...v, walletId: wallets[0]!.id }));
  }, [wallets, values.walletId]);

  const set = (field: Field) => (v: string) => setValues((all) => ({ ...all, [field]: v }));

  const submit = async (event: TargetedSubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const local: Partial<Record<Field, string>> = {};
    const vars: CreateStandingVariables = { walletId: values.walletId, asset: values.asset };
    if (!values.walletId) local.walletId = 'Choose a wallet.';
    if (values.amount.trim() !== '') vars.amount = values.amount.trim();
    const numbers = [
      ['horizonDays', true],
      ['minGainUsd', false],
      ['maxMovesPerDay', true],
    ] as const;
    for (const [field, whole] of numbers) {
      const r = readNumber(values[field], field, whole);
      if (r.error) local[field] = r.error;
      else if (r.value !== undefined) vars[field] = r.value;
    }
    setErrors(local);
    setError(null);
    if (Object.keys(local).length > 0) return;
    setBusy(true);
    const r = await client.mutation(CREATE_STANDING_MUTATION, vars).toPromise();
    setBusy(false);
    const created = r.data?.createStandingIntent;
    if (created && !r.error) {
      onCreated(created);
      return;
    }
    const { byField, other } = fieldIssues(r.error, FIELDS);
    setErrors(byField);
    if (Object.keys(byField).length === 0 || other.length > 0) setError(r.error ?? new Error('The standing intent could not be created.'));
  };

  return (
    <form class="panel" onSubmit={submit} aria-labelledby="create-standing-title" noValidate>
      <h2 id="create-standing-title">New standing intent</h2>
      <div class="field">
        <label for="standing-wallet">Wallet</label>
        <select
          id="standing-wallet"
          ref={first}
          value={values.walletId}
          aria-invalid={errors.walletId ? 'true' : undefined}
          aria-describedby={errors.walletId ? 'standing-wallet-error' : undefined}
          onChange={(e) => set('walletId')(e.currentTarget.value)}
        >
          {wallets.length === 0 && <option value="">No wallets yet</option>}
          {wallets.map((w) => (
            <option key={w.id} value={w.id}>
              {w.userId}
            </option>
          ))}
        </select>
        {errors.walletId && (
          <span id="standing-wallet-error" class="field-error">
            {errors.walletId}
          </span>
        )}
      </div>
      <div class="field">
        <label for="standing-asset">Asset</label>
        <select
          id="standing-asset"
          value={values.asset}
          aria-invalid={errors.asset ? 'true' : undefined}
          aria-describedby={errors.asset ? 'standing-asset-error' : undefined}
          onChange={(e) => set('asset')(e.currentTarget.value)}
        >
          {TOKEN_ASSETS.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </select>
        {errors.asset && (
          <span id="standing-asset-error" class="field-error">
            {errors.asset}
          </span>
        )}
      </div>
      <NumberField
        id="standing-amount"
        label="Amount (optional)"
        hint="Token units to keep lent; empty keeps all of the wallet's balance lent."
        value={values.amount}
        error={errors.amount}
        placeholder="all"
        decimal
        onInput={set('amount')}
      />
      <RuleFields idPrefix="standing" values={values} errors={errors} set={set} />
      {error && <ErrorNotice error={error} />}
      <div class="form-actions">
        <button type="submit" class="button" disabled={busy} aria-busy={busy}>
          Create
        </button>
        <button type="button" class="button button-secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}

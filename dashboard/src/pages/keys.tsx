import type { CombinedError } from '@urql/core';
import { useClient, useQuery } from '@urql/preact';
import type { TargetedSubmitEvent } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ConfirmDialog, ErrorNotice, Loading, PageHeading, ShownOncePanel, StatusBadge, Time } from '../components';
import { CREATE_KEY_MUTATION, KEYS_QUERY, REVOKE_KEY_MUTATION, type ApiKey, type Scope } from '../documents';
import { formatDateTime } from '../format';

function scopesText(scopes: Scope[]): string {
  return scopes.length === 0 ? '—' : scopes.map((s) => (s === 'READ' ? 'Read' : s === 'WRITE' ? 'Write' : s)).join(', ');
}

export function KeysPage() {
  const client = useClient();
  const [result, refetch] = useQuery({ query: KEYS_QUERY });
  const [creating, setCreating] = useState(false);
  // The full key lives only here, from the mutation's answer until "Done"
  // or until the page is left (the component's state goes with it). The
  // mutation's answer is not kept by urql's document cache (it caches
  // query results only).
  const [newKey, setNewKey] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [announcement, setAnnouncement] = useState('');
  // Keys revoked here, shown as such before the list is read again.
  const [revokedNow, setRevokedNow] = useState<Record<string, ApiKey>>({});
  const createButton = useRef<HTMLButtonElement>(null);

  const reload = () => refetch({ requestPolicy: 'network-only' });
  const keys = (result.data?.viewer.account.keys ?? []).map((k) => revokedNow[k.id] ?? k);

  return (
    <section aria-labelledby="page-title">
      <div class="page-header">
        <PageHeading>API keys</PageHeading>
        {!creating && !newKey && (
          <button type="button" class="button" ref={createButton} onClick={() => setCreating(true)}>
            Create key
          </button>
        )}
      </div>
      <p class="muted page-intro">
        Keys authenticate your servers' calls to the REST and GraphQL APIs. Send one as <code>Authorization: Bearer …</code>.
      </p>

      {creating && (
        <CreateKeyForm
          onCancel={() => {
            setCreating(false);
            focusSoon(() => createButton.current);
          }}
          onCreated={(key, apiKey) => {
            setCreating(false);
            setNewKey(key);
            setAnnouncement(`Key ${apiKey.name ?? apiKey.prefix} created.`);
            reload();
          }}
          create={async (name, scopes) => {
            const r = await client.mutation(CREATE_KEY_MUTATION, { name, scopes }, { requestPolicy: 'network-only' }).toPromise();
            if (r.error || !r.data) throw r.error ?? new Error('The key could not be created.');
            return r.data.createApiKey;
          }}
        />
      )}

      {newKey && (
        <NewKeyPanel
          value={newKey}
          onDone={() => {
            setNewKey(null);
            setAnnouncement('');
            focusSoon(() => createButton.current);
          }}
        />
      )}

      <p class="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>

      {result.error && !result.data && <ErrorNotice error={result.error} onRetry={reload} />}
      {!result.data && result.fetching && <Loading label="Loading keys…" />}
      {result.data && (
        <div class="table-scroll" tabIndex={0} role="region" aria-label="API keys table">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Scopes</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.length === 0 && (
                <tr>
                  <td colSpan={7} class="empty">
                    No API keys yet.
                  </td>
                </tr>
              )}
              {keys.map((k) => (
                <tr key={k.id} data-key-id={k.id}>
                  <td id={`key-name-${k.id}`}>{k.name ?? <span class="muted">Unnamed</span>}</td>
                  <td>
                    <code class="mono">{k.prefix}…</code>
                  </td>
                  <td>{scopesText(k.scopes)}</td>
                  <td>
                    <Time iso={k.createdAt}>{formatDateTime(k.createdAt)}</Time>
                  </td>
                  <td>{k.lastUsedAt ? <Time iso={k.lastUsedAt}>{formatDateTime(k.lastUsedAt)}</Time> : <span class="muted">Never</span>}</td>
                  <td>
                    {k.status === 'REVOKED' ? (
                      <span title={k.revokedAt ? `Revoked ${formatDateTime(k.revokedAt)}` : undefined}>
                        <StatusBadge status="revoked" label="Revoked" />
                      </span>
                    ) : (
                      <StatusBadge status="active" label="Active" />
                    )}
                  </td>
                  <td class="actions">
                    {k.status === 'ACTIVE' && (
                      <button
                        type="button"
                        class="button button-danger-outline button-small"
                        aria-label="Revoke"
                        aria-describedby={`key-name-${k.id}`}
                        onClick={() => setRevoking(k)}
                      >
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {result.error && result.data && <ErrorNotice error={result.error} onRetry={reload} />}

      {revoking && (
        <RevokeDialog
          apiKey={revoking}
          onCancel={() => setRevoking(null)}
          revoke={async (id) => {
            const r = await client.mutation(REVOKE_KEY_MUTATION, { id }).toPromise();
            if (r.error || !r.data) throw r.error ?? new Error('The key could not be revoked.');
            return r.data.revokeApiKey;
          }}
          onRevoked={(k) => {
            setRevokedNow((m) => ({ ...m, [k.id]: k }));
            setRevoking(null);
            setAnnouncement(`Key ${k.name ?? k.prefix} revoked.`);
            reload();
          }}
        />
      )}
    </section>
  );
}

function focusSoon(target: () => HTMLElement | null | undefined): void {
  window.setTimeout(() => (target() ?? document.querySelector<HTMLElement>('main h1'))?.focus(), 0);
}

function CreateKeyForm({
  create,
  onCreated,
  onCancel,
}: {
  create: (name: string, scopes: Scope[]) => Promise<{ key: string; apiKey: ApiKey }>;
  onCreated: (key: string, apiKey: ApiKey) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState('');
  const [read, setRead] = useState(true);
  const [write, setWrite] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<CombinedError | Error | string | null>(null);
  const nameInput = useRef<HTMLInputElement>(null);

  useEffect(() => nameInput.current?.focus(), []);

  const submit = async (event: TargetedSubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const trimmed = name.trim();
    const scopes: Scope[] = [...(read ? (['READ'] as const) : []), ...(write ? (['WRITE'] as const) : [])];
    if (!trimmed) {
      setError('Give the key a name.');
      nameInput.current?.focus();
      return;
    }
    if (scopes.length === 0) {
      setError('Choose at least one scope.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const created = await create(trimmed, scopes);
      onCreated(created.key, created.apiKey);
    } catch (e) {
      setError(e as CombinedError | Error);
      setBusy(false);
    }
  };

  return (
    <form class="panel" onSubmit={submit} aria-labelledby="create-key-title" noValidate>
      <h2 id="create-key-title">Create an API key</h2>
      <div class="field">
        <label for="key-name">Name</label>
        <input
          id="key-name"
          ref={nameInput}
          type="text"
          name="name"
          required
          maxLength={100}
          autoComplete="off"
          placeholder="e.g. Production server"
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
        />
      </div>
      <fieldset class="field">
        <legend>Scopes</legend>
        <label class="checkbox">
          <input type="checkbox" name="read" checked={read} onChange={(e) => setRead(e.currentTarget.checked)} />
          Read
        </label>
        <label class="checkbox">
          <input type="checkbox" name="write" checked={write} onChange={(e) => setWrite(e.currentTarget.checked)} />
          Write
        </label>
      </fieldset>
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

function NewKeyPanel({ value, onDone }: { value: string; onDone: () => void }) {
  return (
    <ShownOncePanel id="new-key" title="Your new key" label="New API key" value={value} onDone={onDone}>
      Copy this key now and keep it somewhere safe. It will not be shown again.
    </ShownOncePanel>
  );
}

function RevokeDialog({
  apiKey,
  revoke,
  onRevoked,
  onCancel,
}: {
  apiKey: ApiKey;
  revoke: (id: string) => Promise<ApiKey>;
  onRevoked: (k: ApiKey) => void;
  onCancel: () => void;
}) {
  const label = apiKey.name ?? `${apiKey.prefix}…`;
  return (
    <ConfirmDialog id="revoke" title="Revoke API key" actionLabel="Revoke" onConfirm={async () => onRevoked(await revoke(apiKey.id))} onCancel={onCancel}>
      Revoke <strong>{label}</strong> (<code class="mono">{apiKey.prefix}…</code>)? Requests that use it will be refused at once. This cannot be undone.
    </ConfirmDialog>
  );
}

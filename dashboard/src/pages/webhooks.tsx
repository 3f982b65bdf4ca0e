import type { CombinedError } from '@urql/core';
import { useClient, useQuery } from '@urql/preact';
import type { TargetedSubmitEvent } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ConfirmDialog, ErrorNotice, Loading, PageHeading, ShownOncePanel, StatusBadge, Time } from '../components';
import {
  CREATE_WEBHOOK_MUTATION,
  DELETE_WEBHOOK_MUTATION,
  SEND_TEST_WEBHOOK_MUTATION,
  WEBHOOKS_QUERY,
  WEBHOOK_DELIVERIES_QUERY,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEventType,
} from '../documents';
import { formatDateTime } from '../format';

/** The events an endpoint may subscribe to, as the API spells them. */
const EVENTS: readonly { value: WebhookEventType; name: string; hint: string }[] = [
  { value: 'INTENT_COMPLETED', name: 'intent.completed', hint: 'An intent completed.' },
  { value: 'INTENT_FAILED', name: 'intent.failed', hint: 'An intent failed.' },
  { value: 'INTENT_CANCELLED', name: 'intent.cancelled', hint: 'An intent was cancelled.' },
  { value: 'INTENT_UPDATED', name: 'intent.updated', hint: 'Every status an intent enters.' },
];

/** INTENT_COMPLETED → intent.completed, WEBHOOK_TEST → webhook.test. */
export function eventName(value: string): string {
  return value.toLowerCase().replace('_', '.');
}

const DELIVERIES_SHOWN = 25;
/** How often the log is read again while a delivery is pending. */
const POLL_MS = 1000;

export function WebhooksPage() {
  const client = useClient();
  const [result, refetch] = useQuery({ query: WEBHOOKS_QUERY });
  const [creating, setCreating] = useState(false);
  // The signing secret lives only here, from the mutation's answer until "Done"
  // or until the page is left (urql caches query results only).
  const [secret, setSecret] = useState<string | null>(null);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<WebhookEndpoint | null>(null);
  const [deletedNow, setDeletedNow] = useState<ReadonlySet<string>>(new Set());
  const [announcement, setAnnouncement] = useState('');
  const createButton = useRef<HTMLButtonElement>(null);

  const reload = () => refetch({ requestPolicy: 'network-only' });
  const endpoints = (result.data?.webhookEndpoints ?? []).filter((e) => !deletedNow.has(e.id));
  const selected = endpoints.find((e) => e.id === selectedId) ?? endpoints[0] ?? null;

  return (
    <section aria-labelledby="page-title">
      <div class="page-header">
        <PageHeading>Webhooks</PageHeading>
        {!creating && !secret && (
          <button type="button" class="button" ref={createButton} onClick={() => setCreating(true)}>
            Add endpoint
          </button>
        )}
      </div>
      <p class="muted page-intro">
        The service POSTs your intents' events to these URLs, signed as Standard Webhooks specifies. Verify each delivery with the endpoint's signing secret.
      </p>

      {creating && (
        <CreateEndpointForm
          onCancel={() => {
            setCreating(false);
            focusSoon(() => createButton.current);
          }}
          create={async (input) => {
            const r = await client.mutation(CREATE_WEBHOOK_MUTATION, { input }, { requestPolicy: 'network-only' }).toPromise();
            const created = r.data?.createWebhookEndpoint;
            if (r.error || !created) throw r.error ?? new Error('The endpoint could not be created.');
            return created;
          }}
          onCreated={(value, endpoint) => {
            setCreating(false);
            setSecret(value);
            setSelectedId(endpoint.id);
            setAnnouncement(`Endpoint ${endpoint.url} added.`);
            reload();
          }}
        />
      )}

      {secret && (
        <ShownOncePanel
          id="webhook-secret"
          title="Endpoint added"
          label="Signing secret"
          value={secret}
          onDone={() => {
            setSecret(null);
            setAnnouncement('');
            focusSoon(() => createButton.current);
          }}
        >
          Copy this secret now and keep it with your receiver: it verifies every delivery. It will not be shown again.
        </ShownOncePanel>
      )}

      <p class="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>

      {result.error && !result.data && <ErrorNotice error={result.error} onRetry={reload} />}
      {!result.data && result.fetching && <Loading label="Loading endpoints…" />}
      {result.data && (
        <div class="table-scroll" tabIndex={0} role="region" aria-label="Webhook endpoints table">
          <table>
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Events</th>
                <th scope="col">Created</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {endpoints.length === 0 && (
                <tr>
                  <td colSpan={4} class="empty">
                    No webhook endpoints yet.
                  </td>
                </tr>
              )}
              {endpoints.map((e) => (
                <tr key={e.id} data-webhook-id={e.id} aria-current={selected?.id === e.id ? 'true' : undefined}>
                  <td class="wrap-anywhere">
                    <code class="mono" id={`webhook-url-${e.id}`}>
                      {e.url}
                    </code>
                    {e.description && <div class="muted small">{e.description}</div>}
                  </td>
                  <td>
                    <ul class="chips" aria-label="Events">
                      {e.events.map((ev) => (
                        <li key={ev} class="chip mono">
                          {eventName(ev)}
                        </li>
                      ))}
                    </ul>
                  </td>
                  <td>
                    <Time iso={e.createdAt}>{formatDateTime(e.createdAt)}</Time>
                  </td>
                  <td class="actions">
                    <div class="row-actions">
                      <button
                        type="button"
                        class="button button-secondary button-small"
                        aria-label="Deliveries"
                        aria-describedby={`webhook-url-${e.id}`}
                        aria-pressed={selected?.id === e.id}
                        onClick={() => setSelectedId(e.id)}
                      >
                        Deliveries
                      </button>
                      <button
                        type="button"
                        class="button button-danger-outline button-small"
                        aria-label="Delete"
                        aria-describedby={`webhook-url-${e.id}`}
                        onClick={() => setDeleting(e)}
                      >
                        Delete
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {result.error && result.data && <ErrorNotice error={result.error} onRetry={reload} />}

      {selected && <DeliveryLog key={selected.id} endpoint={selected} />}

      {deleting && (
        <DeleteDialog
          endpoint={deleting}
          onCancel={() => setDeleting(null)}
          remove={async (id) => {
            const r = await client.mutation(DELETE_WEBHOOK_MUTATION, { id }).toPromise();
            if (r.error || !r.data?.deleteWebhookEndpoint) throw r.error ?? new Error('The endpoint could not be deleted.');
          }}
          onDeleted={(e) => {
            setDeletedNow((s) => new Set([...s, e.id]));
            if (selectedId === e.id) setSelectedId(null);
            setDeleting(null);
            setAnnouncement(`Endpoint ${e.url} deleted.`);
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

/** An endpoint's delivery log, newest first, read again every second while a delivery is pending; "Send test event" adds one. */
function DeliveryLog({ endpoint }: { endpoint: WebhookEndpoint }) {
  const client = useClient();
  const [result, refetch] = useQuery({
    query: WEBHOOK_DELIVERIES_QUERY,
    variables: { endpointId: endpoint.id, first: DELIVERIES_SHOWN },
    requestPolicy: 'network-only',
  });
  // Deliveries queued here, shown before the log is read again.
  const [sent, setSent] = useState<WebhookDelivery[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<CombinedError | Error | null>(null);
  const [announcement, setAnnouncement] = useState('');

  const listed = result.data?.webhookDeliveries?.edges.map((e) => e.node) ?? [];
  const deliveries = [...sent.filter((s) => !listed.some((d) => d.id === s.id)), ...listed];
  const pending = deliveries.some((d) => d.status === 'PENDING');

  useEffect(() => {
    if (!pending || result.fetching) return;
    const timer = window.setTimeout(() => refetch({ requestPolicy: 'network-only' }), POLL_MS);
    return () => window.clearTimeout(timer);
  }, [pending, result.fetching, result.data, refetch]);

  const sendTest = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    const r = await client.mutation(SEND_TEST_WEBHOOK_MUTATION, { endpointId: endpoint.id }).toPromise();
    const delivery = r.data?.sendTestWebhook;
    if (r.error || !delivery) setError(r.error ?? new Error('The test event could not be sent.'));
    else {
      setSent((s) => [delivery, ...s]);
      setAnnouncement('Test event queued.');
      refetch({ requestPolicy: 'network-only' });
    }
    setBusy(false);
  };

  return (
    <section class="delivery-log" aria-labelledby="delivery-log-title">
      <div class="page-header">
        <h2 id="delivery-log-title" class="section-title">
          Delivery log
        </h2>
        <button type="button" class="button button-secondary" onClick={sendTest} disabled={busy} aria-busy={busy}>
          Send test event
        </button>
      </div>
      <p class="muted delivery-log-url">
        Deliveries to <code class="mono">{endpoint.url}</code>, newest first.
      </p>
      <p class="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
      {error && <ErrorNotice error={error} />}
      {result.error && !result.data && <ErrorNotice error={result.error} onRetry={() => refetch({ requestPolicy: 'network-only' })} />}
      {!result.data && result.fetching && <Loading label="Loading deliveries…" />}
      {result.data && (
        <div class="table-scroll" tabIndex={0} role="region" aria-label="Deliveries table">
          <table>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col" class="num">
                  Attempts
                </th>
                <th scope="col" class="num">
                  Last status
                </th>
                <th scope="col">Time</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.length === 0 && (
                <tr>
                  <td colSpan={5} class="empty">
                    No deliveries yet. Send a test event to try your endpoint.
                  </td>
                </tr>
              )}
              {deliveries.map((d) => (
                <tr key={d.id} data-delivery-id={d.id}>
                  <td>
                    <code class="mono">{eventName(d.eventType)}</code>
                  </td>
                  <td>
                    <span title={d.lastError ?? undefined}>
                      <StatusBadge status={d.status} />
                    </span>
                  </td>
                  <td class="num">{d.attempts}</td>
                  <td class="num">{d.lastStatusCode ?? <span class="muted">—</span>}</td>
                  <td>
                    <Time iso={d.deliveredAt ?? d.createdAt}>{formatDateTime(d.deliveredAt ?? d.createdAt)}</Time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function CreateEndpointForm({
  create,
  onCreated,
  onCancel,
}: {
  create: (input: { url: string; events: WebhookEventType[]; description?: string }) => Promise<{ secret: string; endpoint: WebhookEndpoint }>;
  onCreated: (secret: string, endpoint: WebhookEndpoint) => void;
  onCancel: () => void;
}) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<ReadonlySet<WebhookEventType>>(new Set(['INTENT_COMPLETED', 'INTENT_FAILED']));
  const [description, setDescription] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<CombinedError | Error | string | null>(null);
  const urlInput = useRef<HTMLInputElement>(null);

  useEffect(() => urlInput.current?.focus(), []);

  const toggle = (value: WebhookEventType, on: boolean) =>
    setEvents((s) => {
      const next = new Set(s);
      if (on) next.add(value);
      else next.delete(value);
      return next;
    });

  const submit = async (event: TargetedSubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const trimmed = url.trim();
    if (!/^https?:\/\/\S+$/i.test(trimmed)) {
      setError('Enter the URL to POST events to, starting with https:// (or http://).');
      urlInput.current?.focus();
      return;
    }
    const chosen = EVENTS.map((e) => e.value).filter((v) => events.has(v));
    if (chosen.length === 0) {
      setError('Choose at least one event.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const note = description.trim();
      const created = await create({ url: trimmed, events: chosen, ...(note ? { description: note } : {}) });
      onCreated(created.secret, created.endpoint);
    } catch (e) {
      setError(e as CombinedError | Error);
      setBusy(false);
    }
  };

  return (
    <form class="panel" onSubmit={submit} aria-labelledby="create-webhook-title" noValidate>
      <h2 id="create-webhook-title">Add a webhook endpoint</h2>
      <div class="field">
        <label for="webhook-url">URL</label>
        <input
          id="webhook-url"
          ref={urlInput}
          type="url"
          name="url"
          required
          maxLength={2048}
          autoComplete="off"
          spellcheck={false}
          placeholder="https://example.com/hooks"
          value={url}
          onInput={(e) => setUrl(e.currentTarget.value)}
        />
      </div>
      <fieldset class="field">
        <legend>Events</legend>
        {EVENTS.map((e) => (
          <label class="checkbox" key={e.value} title={e.hint}>
            <input type="checkbox" name="events" value={e.name} checked={events.has(e.value)} onChange={(ev) => toggle(e.value, ev.currentTarget.checked)} />
            <span class="mono">{e.name}</span>
          </label>
        ))}
      </fieldset>
      <div class="field">
        <label for="webhook-description">
          Description <span class="muted">(optional)</span>
        </label>
        <input
          id="webhook-description"
          type="text"
          name="description"
          maxLength={256}
          autoComplete="off"
          placeholder="e.g. Order service"
          value={description}
          onInput={(e) => setDescription(e.currentTarget.value)}
        />
      </div>
      {error && <ErrorNotice error={error} />}
      <div class="form-actions">
        <button type="submit" class="button" disabled={busy} aria-busy={busy}>
          Add endpoint
        </button>
        <button type="button" class="button button-secondary" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function DeleteDialog({
  endpoint,
  remove,
  onDeleted,
  onCancel,
}: {
  endpoint: WebhookEndpoint;
  remove: (id: string) => Promise<void>;
  onDeleted: (e: WebhookEndpoint) => void;
  onCancel: () => void;
}) {
  const confirm = async () => {
    await remove(endpoint.id);
    onDeleted(endpoint);
  };
  return (
    <ConfirmDialog id="delete-webhook" title="Delete webhook endpoint" actionLabel="Delete" onConfirm={confirm} onCancel={onCancel}>
      Delete <code class="mono wrap-anywhere">{endpoint.url}</code>? It receives no more events, and deliveries still owed to it are dropped. This cannot be
      undone.
    </ConfirmDialog>
  );
}

import type { CombinedError } from '@urql/core';
import type { ComponentChildren } from 'preact';
import { createPortal } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { explorerTxUrl, shortenHex } from './format';

/**
 * A status as a lower-case text badge. An intent's badge carries the same
 * word in `data-status` (a step's in `data-step-status`, so that a row's
 * `[data-status]` is its intent's alone).
 */
export function StatusBadge({ status, label, kind = 'status' }: { status: string; label?: string; kind?: 'status' | 'step' }) {
  const word = status.toLowerCase();
  const data = kind === 'step' ? { 'data-step-status': word } : { 'data-status': word };
  return (
    <span class={`badge status-${word}`} {...data}>
      {label ?? word}
    </span>
  );
}

/** A hash or address shortened to 0x1234…abcd in monospace, the full value in its title. */
export function Hex({ value }: { value: string }) {
  return (
    <code class="mono" title={value}>
      {shortenHex(value)}
    </code>
  );
}

/** A transaction hash, linked to the public explorer of its chain when there is one. */
export function TxHash({ chain, hash }: { chain: string; hash: string }) {
  const url = explorerTxUrl(chain, hash);
  if (!url) return <Hex value={hash} />;
  return (
    <a class="mono" href={url} title={hash} target="_blank" rel="noreferrer">
      {shortenHex(hash)}
      <span class="visually-hidden"> (opens the block explorer in a new tab)</span>
    </a>
  );
}

export function Time({ iso, children }: { iso: string; children: ComponentChildren }) {
  return <time dateTime={iso}>{children}</time>;
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p class="muted" role="status">
      {label}
    </p>
  );
}

/** The message of a failed request; a retry button when given a way to retry. */
export function ErrorNotice({ error, onRetry }: { error: CombinedError | Error | string; onRetry?: () => void }) {
  let message: string;
  let code: string | undefined;
  if (typeof error === 'string') message = error;
  else if ('graphQLErrors' in error && error.graphQLErrors.length > 0) {
    const first = error.graphQLErrors[0]!;
    message = first.message;
    const c = first.extensions?.code;
    code = typeof c === 'string' ? c : undefined;
  } else if ('networkError' in error && error.networkError) {
    message = 'The service could not be reached. Check your connection and try again.';
  } else message = error.message;
  return (
    <div class="notice notice-error" role="alert">
      <p>
        {code && <code class="mono">{code}</code>} {message}
      </p>
      {onRetry && (
        <button type="button" class="button button-secondary" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** A page's main heading; focusable so that a client-side navigation can move focus to it. */
export function PageHeading({ children }: { children: ComponentChildren }) {
  return (
    <h1 id="page-title" class="page-title" tabIndex={-1}>
      {children}
    </h1>
  );
}

/**
 * A modal dialog: a native <dialog> opened with showModal() (focus moves
 * into it, the page behind is inert, Escape closes it), rendered outside
 * #app, which is hidden from assistive technology while the dialog is open.
 * Focus goes back to where it was, or to `returnFocus()` when that element
 * is gone.
 */
export function Modal({
  labelledBy,
  describedBy,
  onClose,
  initialFocus,
  returnFocus,
  children,
}: {
  labelledBy: string;
  describedBy?: string;
  onClose: () => void;
  initialFocus?: { current: HTMLElement | null };
  returnFocus?: () => HTMLElement | null;
  children: ComponentChildren;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const returnFocusRef = useRef(returnFocus);
  returnFocusRef.current = returnFocus;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const app = document.getElementById('app');
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    app?.setAttribute('aria-hidden', 'true');
    initialFocus?.current?.focus();
    const closed = () => onCloseRef.current();
    dialog.addEventListener('close', closed);
    return () => {
      dialog.removeEventListener('close', closed);
      if (dialog.open) dialog.close();
      app?.removeAttribute('aria-hidden');
      const target = previous?.isConnected ? previous : (returnFocusRef.current?.() ?? null);
      target?.focus();
    };
    // Opened once per mount; the latest callbacks are read through refs.
  }, []);

  const root = document.getElementById('modal-root') ?? document.body;
  return createPortal(
    <dialog ref={ref} class="dialog" aria-modal="true" aria-labelledby={labelledBy} aria-describedby={describedBy}>
      {children}
    </dialog>,
    root,
  );
}

/**
 * A secret shown this once (a new API key, a webhook's signing secret): a
 * read-only field that takes the focus with its text selected, a Copy
 * button, and Done, after which the value is gone from the page. `id` names
 * the field (its heading and warning take `${id}-title`, `${id}-warning`).
 */
export function ShownOncePanel({
  id,
  title,
  label,
  value,
  onDone,
  children,
}: {
  id: string;
  title: string;
  label: string;
  value: string;
  onDone: () => void;
  /** The warning: what it is and that it will not be shown again. */
  children: ComponentChildren;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [copyStatus, setCopyStatus] = useState('');

  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);

  const copy = async () => {
    setCopyStatus('');
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(value);
      setCopyStatus('Copied');
    } catch {
      // No clipboard API (plain http) or no permission: select the value so
      // that it can be copied by hand, and try the legacy command.
      const el = input.current;
      el?.focus();
      el?.select();
      let copied: boolean;
      try {
        copied = document.execCommand('copy');
      } catch {
        copied = false;
      }
      setCopyStatus(copied ? 'Copied' : 'Selected: press Ctrl+C (⌘C) to copy it');
    }
  };

  return (
    <section class="panel panel-success" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <p class="warning" id={`${id}-warning`}>
        {children}
      </p>
      <div class="field">
        <label for={id}>{label}</label>
        <div class="copy-row">
          <input
            id={id}
            ref={input}
            class="mono"
            type="text"
            readOnly
            value={value}
            spellcheck={false}
            autoComplete="off"
            aria-describedby={`${id}-warning`}
            onFocus={(e) => e.currentTarget.select()}
          />
          <button type="button" class="button button-secondary" onClick={copy}>
            Copy
          </button>
        </div>
        <p class="copy-status" role="status" aria-live="polite">
          {copyStatus}
        </p>
      </div>
      <div class="form-actions">
        <button type="button" class="button" onClick={onDone}>
          Done
        </button>
      </div>
    </section>
  );
}

/**
 * A destructive action confirmed in a dialog: the focus starts on Cancel,
 * Escape or Cancel closes it with nothing done, the action's error is shown
 * in place (the dialog stays open), and the focus returns to the page heading.
 */
export function ConfirmDialog({
  id,
  title,
  actionLabel,
  children,
  onConfirm,
  onCancel,
}: {
  /** Prefix of the title's and description's element ids. */
  id: string;
  title: string;
  actionLabel: string;
  /** The description: what the action does to what. */
  children: ComponentChildren;
  onConfirm: () => Promise<void>;
  onCancel: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<CombinedError | Error | null>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);

  const confirm = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
    } catch (e) {
      setError(e as CombinedError | Error);
      setBusy(false);
    }
  };

  return (
    <Modal
      labelledBy={`${id}-title`}
      describedBy={`${id}-description`}
      onClose={onCancel}
      initialFocus={cancelButton}
      returnFocus={() => document.querySelector<HTMLElement>('main h1')}
    >
      <h2 id={`${id}-title`}>{title}</h2>
      <p id={`${id}-description`}>{children}</p>
      {error && <ErrorNotice error={error} />}
      <div class="form-actions">
        <button type="button" class="button button-danger" onClick={confirm} disabled={busy} aria-busy={busy}>
          {actionLabel}
        </button>
        <button type="button" class="button button-secondary" ref={cancelButton} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </Modal>
  );
}

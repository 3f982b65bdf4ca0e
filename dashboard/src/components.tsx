import type { CombinedError } from '@urql/core';
import type { ComponentChildren } from 'preact';
import { createPortal } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
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

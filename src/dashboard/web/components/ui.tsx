import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ApiError, ModelStatus } from '../api';

export function Loading({ what }: { what: string }) {
  return (
    <div class="loading" role="status">
      <span class="spinner" aria-hidden="true" />
      Loading {what}…
    </div>
  );
}

export function LoadError({ error, onRetry }: { error: ApiError; onRetry: () => void }) {
  return (
    <div class="alert alert--error" role="alert">
      <p>{error.message}</p>
      <button type="button" class="button" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <div class="empty">
      <h2 class="empty__title">{title}</h2>
      {children}
    </div>
  );
}

const STATUS_LABEL: Record<ModelStatus | 'revoked', string> = {
  active: 'Active',
  deactivated: 'Deactivated',
  revoked: 'Revoked',
};

export function StatusBadge({ status }: { status: ModelStatus | 'revoked' }) {
  return <span class={`badge badge--${status}`}>{STATUS_LABEL[status]}</span>;
}

/** The page's heading: focused on arrival so keyboard and screen-reader users start there. */
export function PageTitle({ children, title }: { children: ComponentChildren; title: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Adline`;
    ref.current?.focus({ preventScroll: true });
  }, [title]);
  return (
    <h1 ref={ref} tabIndex={-1} class="page-title">
      {children}
    </h1>
  );
}

/** Copies `text`; says so in a live region. Clipboard access needs a secure context. */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state !== 'copied') return;
    const timer = setTimeout(() => setState('idle'), 2500);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = () => {
    if (!navigator.clipboard) {
      setState('failed');
      return;
    }
    navigator.clipboard.writeText(text).then(
      () => setState('copied'),
      () => setState('failed'),
    );
  };
  return (
    <span class="copy">
      <button type="button" class="button button--small" onClick={copy}>
        {state === 'copied' ? 'Copied ✓' : label}
      </button>
      <span role="status" class={state === 'failed' ? 'copy__failed' : 'visually-hidden'}>
        {state === 'copied' && 'Copied to the clipboard.'}
        {state === 'failed' && 'Could not copy: select the text and copy it yourself.'}
      </span>
    </span>
  );
}

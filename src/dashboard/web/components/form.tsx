import type { ComponentChildren, TargetedSubmitEvent } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api';

interface TextFieldProps {
  /** Unique on the page: the input's id. */
  id: string;
  label: string;
  value: string;
  onValue: (value: string) => void;
  error?: string;
  hint?: ComponentChildren;
  type?: 'text' | 'email' | 'password' | 'url' | 'date' | 'number' | 'datetime-local';
  multiline?: boolean;
  optional?: boolean;
  autoComplete?: string;
  placeholder?: string;
  maxLength?: number;
}

/** A labelled input with its hint and, from the server's `errors`, its own error message. */
export function TextField(props: TextFieldProps) {
  const hintId = `${props.id}-hint`;
  const errorId = `${props.id}-error`;
  const describedBy =
    [props.hint ? hintId : '', props.error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  // Preact types each input type with its own ARIA roles, so a union of types fits none of
  // them; these fields never set a role, which makes any of the types safe.
  const inputType = (props.type ?? 'text') as 'text';
  const shared = {
    id: props.id,
    name: props.id,
    value: props.value,
    placeholder: props.placeholder,
    maxLength: props.maxLength,
    required: !props.optional,
    'aria-invalid': props.error ? ('true' as const) : undefined,
    'aria-describedby': describedBy,
  };
  return (
    <div class={props.error ? 'field field--invalid' : 'field'}>
      <label for={props.id}>
        {props.label}
        {props.optional && <span class="field__optional"> (optional)</span>}
      </label>
      {props.hint && (
        <p id={hintId} class="field__hint">
          {props.hint}
        </p>
      )}
      {props.multiline ? (
        <textarea {...shared} rows={3} onInput={(e) => props.onValue(e.currentTarget.value)} />
      ) : (
        <input
          {...shared}
          type={inputType}
          step={props.type === 'number' ? 'any' : undefined}
          autoComplete={props.autoComplete}
          onInput={(e) => props.onValue(e.currentTarget.value)}
        />
      )}
      {props.error && (
        <p id={errorId} class="field__error">
          <span aria-hidden="true">⚠ </span>
          {props.error}
        </p>
      )}
    </div>
  );
}

/** What went wrong with a whole form; field errors are shown beside their fields too. */
export function FormError({ error }: { error: ApiError | null }) {
  if (!error) return null;
  const message =
    error.code === 'validation_failed' && error.errors.length > 0
      ? 'Please correct the fields marked below.'
      : error.message;
  return (
    <div class="alert alert--error" role="alert">
      {message}
    </div>
  );
}

/**
 * Runs a form's action with a busy flag and keeps its ApiError; after a failure, moves focus
 * to the first field the server named, else to the form's error message.
 */
export function useFormAction(action: () => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (!error || !formRef.current) return;
    const target =
      formRef.current.querySelector<HTMLElement>('[aria-invalid="true"]') ??
      formRef.current.querySelector<HTMLElement>('[role="alert"]');
    if (target && !target.hasAttribute('tabindex') && target.getAttribute('role') === 'alert') {
      target.setAttribute('tabindex', '-1');
    }
    target?.focus();
  }, [error]);
  const onSubmit = (event: TargetedSubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    action()
      .catch((caught: unknown) => setError(toApiError(caught)))
      .finally(() => setBusy(false));
  };
  return { busy, error, setError, onSubmit, formRef };
}

/**
 * Client-side checks before a request: throws the same validation answer the API would, so
 * the messages show beside their fields the same way. `checks` maps a field to its message.
 */
export function requireValid(checks: Record<string, string | null>): void {
  const errors = Object.entries(checks)
    .filter((entry): entry is [string, string] => entry[1] !== null)
    .map(([field, message]) => ({ field, message }));
  if (errors.length > 0) {
    throw new ApiError(400, 'validation_failed', 'Please correct the fields marked below.', errors);
  }
}

export function toApiError(caught: unknown): ApiError {
  return caught instanceof ApiError
    ? caught
    : new ApiError(0, 'internal', 'Something went wrong in the page. Reload and try again.');
}

import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

interface DialogProps {
  open: boolean;
  title: string;
  /** Escape or the close button. */
  onClose: () => void;
  children: ComponentChildren;
  actions: ComponentChildren;
  labelId: string;
  /** A × button in the corner, which calls `onClose` as Escape does. */
  closeButton?: boolean;
}

/**
 * A modal `<dialog>`: the browser keeps focus inside, Escape closes it, and focus returns to
 * the control that opened it.
 */
export function Dialog(props: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) {
      const opener = document.activeElement as HTMLElement | null;
      dialog.showModal();
      return () => {
        if (dialog.open) dialog.close();
        // The opener may be gone (a revoked key has no Revoke button): then the page's content.
        (opener?.isConnected ? opener : document.getElementById('main'))?.focus();
      };
    }
  }, [props.open]);
  if (!props.open) return null;
  return (
    <dialog
      ref={ref}
      class="dialog"
      aria-labelledby={props.labelId}
      onCancel={(event) => {
        event.preventDefault();
        props.onClose();
      }}
    >
      <div class="dialog__head">
        <h2 id={props.labelId} class="dialog__title">
          {props.title}
        </h2>
        {props.closeButton && (
          <button
            type="button"
            class="button button--small button--icon"
            aria-label="Close"
            onClick={props.onClose}
          >
            <span aria-hidden="true">×</span>
          </button>
        )}
      </div>
      <div class="dialog__body">{props.children}</div>
      <div class="dialog__actions">{props.actions}</div>
    </dialog>
  );
}

interface ConfirmProps {
  open: boolean;
  title: string;
  confirmLabel: string;
  danger?: boolean;
  busy?: boolean;
  error?: string | null;
  onConfirm: () => void;
  onCancel: () => void;
  children: ComponentChildren;
}

/** Asks before a change that matters; Cancel has the focus, so Enter alone changes nothing. */
export function ConfirmDialog(props: ConfirmProps) {
  return (
    <Dialog
      open={props.open}
      title={props.title}
      labelId="confirm-title"
      onClose={props.onCancel}
      actions={
        <>
          <button type="button" class="button" autoFocus onClick={props.onCancel}>
            Cancel
          </button>
          <button
            type="button"
            class={props.danger ? 'button button--danger' : 'button button--primary'}
            disabled={props.busy}
            onClick={props.onConfirm}
          >
            {props.busy ? 'Working…' : props.confirmLabel}
          </button>
        </>
      }
    >
      {props.children}
      {props.error && (
        <p class="alert alert--error" role="alert">
          {props.error}
        </p>
      )}
    </Dialog>
  );
}

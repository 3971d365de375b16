import { useState } from 'preact/hooks';
import { api } from '../api';
import { toApiError } from './form';
import { useSession } from '../session';

/** Shown while the account's address is unconfirmed (`email_verified: false`), with a resend. */
export function VerifyEmailNotice() {
  const { publisher } = useSession();
  const [state, setState] = useState<'idle' | 'busy' | 'sent'>('idle');
  const [error, setError] = useState<string | null>(null);
  if (publisher.email_verified !== false) return null;
  const resend = () => {
    setState('busy');
    setError(null);
    api.resendVerification().then(
      () => setState('sent'),
      (caught: unknown) => {
        setState('idle');
        setError(toApiError(caught).message);
      },
    );
  };
  return (
    <div class="alert alert--warning verify" id="verify-email">
      <p>
        <strong>Please verify your e-mail address.</strong> We sent a link to {publisher.email};
        open it to confirm the address, so that you can reset your password if you forget it.
      </p>
      <button
        type="button"
        class="button button--small"
        disabled={state === 'busy'}
        onClick={resend}
      >
        {state === 'busy' ? 'Sending…' : 'Send the link again'}
      </button>
      <p role="status" class="verify__status">
        {state === 'sent' && `A new link is on its way to ${publisher.email}.`}
        {error}
      </p>
    </div>
  );
}

import { useState } from 'preact/hooks';
import { api } from '../api';
import { FormError, requireValid, TextField, useFormAction } from '../components/form';
import { PageTitle } from '../components/ui';
import { VerifyEmailNotice } from '../components/verify-email-notice';
import { formatPercent } from '../format';
import { useSession } from '../session';
import { checkNewPassword, checkRequired } from '../validation-messages';

/** The account's facts and its password. */
export function AccountPage() {
  const session = useSession();
  const { publisher } = session;
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const form = useFormAction(async () => {
    requireValid({
      current_password: checkRequired('current_password', current),
      new_password: checkNewPassword('new_password', next),
    });
    await api.changePassword({ current_password: current, new_password: next });
    setCurrent('');
    setNext('');
    session.notify('Password changed. Your other sessions have been signed out.');
  });
  const wrongCurrent = form.error?.code === 'invalid_credentials';
  return (
    <>
      <PageTitle title="Account">Account</PageTitle>
      <VerifyEmailNotice />
      <section class="card" aria-labelledby="account-heading">
        <h2 id="account-heading" class="section-title">
          Your account
        </h2>
        <dl class="facts">
          <dt>Name</dt>
          <dd>{publisher.name}</dd>
          <dt>Email</dt>
          <dd>
            {publisher.email}{' '}
            {publisher.email_verified === true && <span class="badge badge--active">Verified</span>}
            {publisher.email_verified === false && (
              <span class="badge badge--pending">Not verified</span>
            )}
          </dd>
          <dt>Revenue share</dt>
          <dd id="account-revenue-share">
            {formatPercent(publisher.revenue_share)} of each billed click
          </dd>
        </dl>
      </section>
      <section class="card form" aria-labelledby="password-heading">
        <h2 id="password-heading" class="section-title">
          Change password
        </h2>
        <form ref={form.formRef} onSubmit={form.onSubmit} noValidate>
          {!wrongCurrent && <FormError error={form.error} />}
          <input
            type="text"
            name="username"
            autoComplete="username"
            value={publisher.email}
            hidden
            readOnly
          />
          <TextField
            id="current-password"
            label="Current password"
            type="password"
            autoComplete="current-password"
            value={current}
            onValue={setCurrent}
            error={
              form.error?.forField('current_password') ??
              (wrongCurrent ? 'The current password is not right. Try again.' : undefined)
            }
          />
          <TextField
            id="new-password"
            label="New password"
            type="password"
            hint="At least 10 characters. Your other sessions are signed out."
            autoComplete="new-password"
            value={next}
            onValue={setNext}
            error={form.error?.forField('new_password')}
          />
          <div class="form__actions">
            <button type="submit" class="button button--primary" disabled={form.busy}>
              {form.busy ? 'Changing…' : 'Change password'}
            </button>
          </div>
        </form>
      </section>
    </>
  );
}

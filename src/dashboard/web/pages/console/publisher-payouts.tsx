import { useState } from 'preact/hooks';
import type { Payout, PayoutMethod } from '../../api';
import { adminApi } from '../../admin-api';
import { ConfirmDialog } from '../../components/dialog';
import { FormError, requireValid, TextField, useFormAction } from '../../components/form';
import { EmptyState, LoadError } from '../../components/ui';
import { presetRange } from '../../dates';
import { formatMoney } from '../../format';
import { useLoad, useSession } from '../../session';
import { METHODS, PayoutsTable } from '../../components/payouts-table';

/** A publisher's payouts: the history, recording one, voiding one with a reason. */
export function PublisherPayouts(props: { publisherId: string; onChange: () => void }) {
  const payouts = useLoad(() => adminApi.publisherPayouts(props.publisherId), [props.publisherId]);
  const [voiding, setVoiding] = useState<Payout | null>(null);
  const changed = () => {
    payouts.reload();
    props.onChange();
  };
  return (
    <section class="card" aria-labelledby="payouts-title">
      <h2 id="payouts-title" class="section-title">
        Payouts
      </h2>
      <RecordPayout publisherId={props.publisherId} onDone={changed} />
      {payouts.error && <LoadError error={payouts.error} onRetry={payouts.reload} />}
      {payouts.data?.payouts.length === 0 && <EmptyState title="No payouts yet" />}
      {payouts.data && payouts.data.payouts.length > 0 && (
        <PayoutsTable
          id="publisher-payouts"
          payouts={payouts.data.payouts}
          dateLabel="Recorded"
          action={(p) => (
            <button type="button" class="button button--small" onClick={() => setVoiding(p)}>
              Void<span class="visually-hidden"> payout {p.reference}</span>
            </button>
          )}
        />
      )}
      {voiding && (
        <VoidPayout
          payout={voiding}
          onDone={(done) => {
            setVoiding(null);
            if (done) changed();
          }}
        />
      )}
    </section>
  );
}

function RecordPayout({ publisherId, onDone }: { publisherId: string; onDone: () => void }) {
  const { notify } = useSession();
  const lastMonth = presetRange('last_month');
  const [amount, setAmount] = useState('');
  const [start, setStart] = useState(lastMonth.from);
  const [end, setEnd] = useState(lastMonth.to);
  const [method, setMethod] = useState<PayoutMethod>('bank_transfer');
  const [reference, setReference] = useState('');
  const form = useFormAction(async () => {
    const dollars = Number(amount);
    requireValid({
      amount:
        amount.trim() !== '' && dollars > 0 && Math.round(dollars * 100) === dollars * 100
          ? null
          : 'Enter an amount above 0, to the cent.',
      period_start: start ? null : 'Enter the first day paid for.',
      period_end: !end
        ? 'Enter the last day paid for.'
        : end < start
          ? 'The last day must not be before the first.'
          : null,
      reference: reference.trim() ? null : 'Enter the payment’s reference.',
    });
    const payout = await adminApi.createPayout(publisherId, {
      amount: dollars,
      period_start: start,
      period_end: end,
      method,
      reference: reference.trim(),
    });
    notify(`Payout of ${formatMoney(payout.amount)} recorded.`);
    setAmount('');
    setReference('');
    onDone();
  });
  const fieldError = (field: string, codes: string[] = []) =>
    form.error && codes.includes(form.error.code)
      ? form.error.message
      : form.error?.forField(field);
  return (
    <form ref={form.formRef} class="form" onSubmit={form.onSubmit} noValidate>
      <h3 class="section-title">Record a payout</h3>
      {form.error?.code !== 'payout_exceeds_balance' &&
        form.error?.code !== 'payout_reference_conflict' && <FormError error={form.error} />}
      <TextField
        id="payout-amount"
        label="Amount (US$)"
        type="number"
        value={amount}
        onValue={setAmount}
        error={fieldError('amount', ['payout_exceeds_balance'])}
      />
      <TextField
        id="payout-start"
        label="Period from"
        type="date"
        value={start}
        onValue={setStart}
        error={fieldError('period_start')}
      />
      <TextField
        id="payout-end"
        label="Period to"
        type="date"
        value={end}
        onValue={setEnd}
        error={fieldError('period_end')}
      />
      <div class="field">
        <label for="payout-method">Method</label>
        <select
          id="payout-method"
          value={method}
          onChange={(e) => setMethod(e.currentTarget.value as PayoutMethod)}
        >
          {Object.entries(METHODS).map(([id, label]) => (
            <option key={id} value={id}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <TextField
        id="payout-reference"
        label="Reference"
        value={reference}
        onValue={setReference}
        maxLength={100}
        error={fieldError('reference', ['payout_reference_conflict'])}
      />
      <div class="form__actions">
        <button type="submit" class="button button--primary" disabled={form.busy}>
          Record payout
        </button>
      </div>
    </form>
  );
}

function VoidPayout({ payout, onDone }: { payout: Payout; onDone: (done: boolean) => void }) {
  const { notify } = useSession();
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = () => {
    if (!reason.trim()) {
      setError('Enter why the payout is voided.');
      return;
    }
    setBusy(true);
    adminApi.voidPayout(payout.id, reason.trim()).then(
      () => {
        notify(`Payout ${payout.reference} voided.`);
        onDone(true);
      },
      (e: Error) => {
        setBusy(false);
        setError(e.message);
      },
    );
  };
  return (
    <ConfirmDialog
      open
      title={`Void payout ${payout.reference}?`}
      confirmLabel="Void payout"
      danger
      busy={busy}
      error={error}
      onConfirm={confirm}
      onCancel={() => onDone(false)}
    >
      <p>Its {formatMoney(payout.amount)} return to the unpaid balance. This cannot be undone.</p>
      <TextField
        id="void-reason"
        label="Reason"
        multiline
        maxLength={500}
        value={reason}
        onValue={setReason}
      />
    </ConfirmDialog>
  );
}

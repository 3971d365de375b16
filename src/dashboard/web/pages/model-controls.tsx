import { useState } from 'preact/hooks';
import { CONTENT_CATEGORIES } from '@/common/content-categories';
import { api, type Model, type ModelControls } from '../api';
import { FormError, TextField, useFormAction } from '../components/form';
import { useSession } from '../session';
import { BlockedAdvertisersField } from './blocked-advertisers';

/** The form's text for each control, as a person edits it. */
interface ControlFields {
  categories: ReadonlySet<string>;
  /** Ids, picked by name. */
  advertisers: readonly string[];
  keywords: string;
  floor: string;
  capped: boolean;
  maxAds: string;
  perMinutes: string;
}

function fieldsOf(controls: ModelControls): ControlFields {
  return {
    categories: new Set(controls.blocked_categories),
    advertisers: controls.blocked_advertisers,
    keywords: controls.blocked_keywords.join('\n'),
    floor: String(controls.relevance_floor),
    capped: controls.frequency_cap !== null,
    // A cap being switched on starts from a common one: 3 ads an hour.
    maxAds: String(controls.frequency_cap?.max_ads ?? 3),
    perMinutes: String(controls.frequency_cap?.per_minutes ?? 60),
  };
}

/** One value a line, or several separated by commas, as people paste lists; blanks dropped. */
const listOf = (text: string) =>
  text
    .split(/[\n,]/)
    .map((value) => value.trim())
    .filter((value) => value !== '');

/** An empty number field means 0; anything else goes to the server as typed, to be checked there. */
const numberOf = (text: string) => (text.trim() === '' ? 0 : Number(text));

function controlsOf(fields: ControlFields): ModelControls {
  return {
    // In the taxonomy's order, whatever the order they were ticked in.
    blocked_categories: CONTENT_CATEGORIES.map((c) => c.id).filter((id) =>
      fields.categories.has(id),
    ),
    blocked_advertisers: [...fields.advertisers],
    blocked_keywords: listOf(fields.keywords),
    relevance_floor: numberOf(fields.floor),
    frequency_cap: fields.capped
      ? { max_ads: numberOf(fields.maxAds), per_minutes: numberOf(fields.perMinutes) }
      : null,
  };
}

/** The model's controls: what ads it is served. Saved as a whole with `PUT …/controls`. */
export function ControlsCard({ model, onSaved }: { model: Model; onSaved: (m: Model) => void }) {
  const session = useSession();
  const [fields, setFields] = useState(() => fieldsOf(model.controls));
  const set = (changes: Partial<ControlFields>) => setFields({ ...fields, ...changes });
  const form = useFormAction(async () => {
    const saved = await api.setControls(model.id, controlsOf(fields));
    // The server's form of what was sent: keywords normalised, duplicates gone.
    setFields(fieldsOf(saved.controls));
    onSaved(saved);
    session.notify('Controls saved.');
  });
  const toggle = (id: string, on: boolean) => {
    const categories = new Set(fields.categories);
    if (on) categories.add(id);
    else categories.delete(id);
    set({ categories });
  };
  const error = (field: string) => form.error?.forField(field);
  return (
    <section aria-labelledby="controls-heading">
      <h2 id="controls-heading" class="section-title">
        Controls
      </h2>
      <p class="lead">
        Which ads this model's replies may carry. Changes apply to the next fetch-ads call of every
        key of the model.
      </p>
      <form class="card form" ref={form.formRef} onSubmit={form.onSubmit} noValidate>
        <FormError error={form.error} />
        <fieldset
          class={error('blocked_categories') ? 'field checks field--invalid' : 'field checks'}
          aria-describedby={error('blocked_categories') ? 'controls-categories-error' : undefined}
        >
          <legend class="field__label">Blocked categories</legend>
          <p class="field__hint">
            Campaigns of a ticked category are never shown (IAB Tech Lab Content Taxonomy 3.1, tier
            1). Campaigns without a category are blocked by none.
          </p>
          <div class="checks__grid">
            {CONTENT_CATEGORIES.map((category) => (
              <label key={category.id} class="check">
                <input
                  type="checkbox"
                  name="blocked-category"
                  value={category.id}
                  checked={fields.categories.has(category.id)}
                  onChange={(e) => toggle(category.id, e.currentTarget.checked)}
                />
                {category.name}
              </label>
            ))}
          </div>
          {error('blocked_categories') && (
            <p id="controls-categories-error" class="field__error">
              <span aria-hidden="true">⚠ </span>
              {error('blocked_categories')}
            </p>
          )}
        </fieldset>
        <BlockedAdvertisersField
          blocked={fields.advertisers}
          onChange={(advertisers) => set({ advertisers })}
          error={error('blocked_advertisers')}
        />
        <TextField
          id="controls-keywords"
          label="Blocked keywords"
          optional
          multiline
          hint="One a line or separated by commas (up to 200): campaigns targeting any of them are never shown."
          value={fields.keywords}
          onValue={(keywords) => set({ keywords })}
          error={error('blocked_keywords')}
        />
        <NumberField
          id="controls-floor"
          label="Relevance floor"
          hint="From 0 to 1: 0 shows every match; 0.5 only ads at least half as relevant as the best possible."
          min={0}
          max={1}
          step={0.05}
          value={fields.floor}
          onValue={(floor) => set({ floor })}
          error={error('relevance_floor')}
        />
        <fieldset class="field checks">
          <legend class="field__label">Frequency cap</legend>
          <label class="check">
            <input
              type="checkbox"
              id="controls-capped"
              checked={fields.capped}
              onChange={(e) => set({ capped: e.currentTarget.checked })}
            />
            <span>
              Limit how many ads one conversation sees (by the <code>session_id</code> your backend
              sends)
            </span>
          </label>
          {error('frequency_cap') && <p class="field__error">{error('frequency_cap')}</p>}
          {fields.capped && (
            <div class="inline-form__row">
              <NumberField
                id="controls-cap-ads"
                label="At most (ads)"
                min={1}
                max={100}
                step={1}
                value={fields.maxAds}
                onValue={(maxAds) => set({ maxAds })}
                error={error('frequency_cap.max_ads')}
              />
              <NumberField
                id="controls-cap-minutes"
                label="Per (minutes)"
                min={1}
                max={1440}
                step={1}
                value={fields.perMinutes}
                onValue={(perMinutes) => set({ perMinutes })}
                error={error('frequency_cap.per_minutes')}
              />
            </div>
          )}
        </fieldset>
        <div class="form__actions">
          <button type="submit" class="button button--primary" disabled={form.busy}>
            {form.busy ? 'Saving…' : 'Save controls'}
          </button>
        </div>
      </form>
    </section>
  );
}

interface NumberFieldProps {
  id: string;
  label: string;
  hint?: string;
  min: number;
  max: number;
  step: number;
  value: string;
  onValue: (value: string) => void;
  error?: string;
}

/** A labelled number input with its hint and error, laid out as `TextField` is. */
function NumberField(props: NumberFieldProps) {
  const hintId = `${props.id}-hint`;
  const errorId = `${props.id}-error`;
  const describedBy =
    [props.hint ? hintId : '', props.error ? errorId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class={props.error ? 'field field--narrow field--invalid' : 'field field--narrow'}>
      <label for={props.id}>{props.label}</label>
      {props.hint && (
        <p id={hintId} class="field__hint">
          {props.hint}
        </p>
      )}
      <input
        id={props.id}
        name={props.id}
        type="number"
        inputMode="decimal"
        min={props.min}
        max={props.max}
        step={props.step}
        value={props.value}
        aria-invalid={props.error ? 'true' : undefined}
        aria-describedby={describedBy}
        onInput={(e) => props.onValue(e.currentTarget.value)}
      />
      {props.error && (
        <p id={errorId} class="field__error">
          <span aria-hidden="true">⚠ </span>
          {props.error}
        </p>
      )}
    </div>
  );
}

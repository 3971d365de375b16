import { useState } from 'preact/hooks';

interface ChipsProps {
  id: string;
  label: string;
  values: string[];
  onValues: (values: string[]) => void;
  error?: string;
  hint?: string;
  /** Applied to each value as it is added (e.g. upper case for country codes). */
  normalise?: (value: string) => string;
}

/** A list of short values as removable chips; Enter or a comma adds what was typed. */
export function ChipsField(props: ChipsProps) {
  const [draft, setDraft] = useState('');
  const add = () => {
    const added = draft
      .split(',')
      .map((v) => (props.normalise ?? ((x: string) => x.trim()))(v.trim()))
      .filter((v) => v !== '' && !props.values.includes(v));
    if (added.length > 0) props.onValues([...props.values, ...added]);
    setDraft('');
  };
  const describedBy = [props.hint ? `${props.id}-hint` : '', props.error ? `${props.id}-error` : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div class={props.error ? 'field field--invalid' : 'field'}>
      <label for={props.id}>{props.label}</label>
      {props.hint && (
        <p id={`${props.id}-hint`} class="field__hint">
          {props.hint}
        </p>
      )}
      {props.values.length > 0 && (
        <ul class="chips" aria-label={props.label}>
          {props.values.map((value) => (
            <li key={value} class="chip">
              {value}
              <button
                type="button"
                class="chip__remove"
                aria-label={`Remove ${value}`}
                onClick={() => props.onValues(props.values.filter((v) => v !== value))}
              >
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <div class="chips__add">
        <input
          id={props.id}
          value={draft}
          aria-invalid={props.error ? 'true' : undefined}
          aria-describedby={describedBy || undefined}
          onInput={(e) => setDraft(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' || e.key === ',') {
              e.preventDefault();
              add();
            }
          }}
          onBlur={add}
        />
        <button type="button" class="button button--small" onClick={add}>
          Add<span class="visually-hidden"> to {props.label}</span>
        </button>
      </div>
      {props.error && (
        <p id={`${props.id}-error`} class="field__error">
          <span aria-hidden="true">⚠ </span>
          {props.error}
        </p>
      )}
    </div>
  );
}

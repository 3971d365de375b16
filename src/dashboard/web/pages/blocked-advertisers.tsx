import { api } from '../api';
import { useLoad } from '../session';

interface BlockedAdvertisersProps {
  /** Advertiser ids, as the model's controls hold them. */
  blocked: readonly string[];
  onChange: (blocked: string[]) => void;
  error?: string;
}

/**
 * Blocked advertisers, picked by name from those whose ads the publisher's models were
 * served (`GET /api/advertisers/shown`); the controls store their ids. An id blocked
 * through the API that the list does not hold stays, shown by its id, until unticked.
 */
export function BlockedAdvertisersField({ blocked, onChange, error }: BlockedAdvertisersProps) {
  const shown = useLoad(() => api.shownAdvertisers(), []);
  const listed = shown.data ?? [];
  const unlisted = blocked.filter((id) => !listed.some((advertiser) => advertiser.id === id));
  const choices = [
    ...listed.map((advertiser) => ({ id: advertiser.id, label: advertiser.name })),
    ...(shown.data ? unlisted.map((id) => ({ id, label: `Advertiser ${id}` })) : []),
  ];
  const toggle = (id: string, on: boolean) =>
    onChange(on ? [...blocked, id] : blocked.filter((other) => other !== id));
  return (
    <fieldset
      class={error ? 'field checks field--invalid' : 'field checks'}
      aria-describedby={error ? 'controls-advertisers-error' : undefined}
    >
      <legend class="field__label">Blocked advertisers</legend>
      <p class="field__hint">
        Advertisers whose ads your models have been served. A ticked one's campaigns are never shown
        to this model (up to 100).
      </p>
      {shown.loading && !shown.data && <p class="muted">Loading advertisers…</p>}
      {shown.error && (
        <p class="field__error">
          {shown.error.message}{' '}
          <button type="button" class="button button--small" onClick={shown.reload}>
            Try again
          </button>
        </p>
      )}
      {shown.data && choices.length === 0 && (
        <p class="muted">No advertiser's ad has been served to your models yet.</p>
      )}
      {choices.length > 0 && (
        <div class="checks__grid">
          {choices.map((choice) => (
            <label key={choice.id} class="check">
              <input
                type="checkbox"
                name="blocked-advertiser"
                value={choice.id}
                checked={blocked.includes(choice.id)}
                onChange={(e) => toggle(choice.id, e.currentTarget.checked)}
              />
              {choice.label}
            </label>
          ))}
        </div>
      )}
      {error && (
        <p id="controls-advertisers-error" class="field__error">
          <span aria-hidden="true">⚠ </span>
          {error}
        </p>
      )}
    </fieldset>
  );
}

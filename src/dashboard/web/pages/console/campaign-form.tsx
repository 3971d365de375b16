import { useState } from 'preact/hooks';
import { CONTENT_CATEGORIES } from '@/common/content-categories';
import { adminApi, type CampaignInput, DEVICES } from '../../admin-api';
import { FormError, requireValid, TextField, useFormAction } from '../../components/form';
import { navigate } from '../../router';
import { useLoad, useSession } from '../../session';
import { AdPreview } from './ad-preview';
import { ChipsField } from './chips';

export const emptyCampaign: CampaignInput = {
  advertiser_id: '',
  name: '',
  text: '',
  image_url: null,
  target_url: '',
  category: null,
  keywords: [],
  keyword_translations: {},
  bid_per_click: 0,
  budget_total: null,
  budget_daily: null,
  starts_at: null,
  ends_at: null,
  countries: [],
  devices: [],
  status: 'active',
  click_id_param: 'adl_click',
  attribution_window_days: 30,
};

const ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;
const pad = (n: number) => String(n).padStart(2, '0');
/** An instant as a `datetime-local` value in the operator's time zone. */
const toLocal = (iso: string | null): string => {
  if (!iso) return '';
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};
const toIso = (local: string): string | null => (local ? new Date(local).toISOString() : null);
const money = (s: string): number | null => (s.trim() === '' ? null : Number(s));
const isHttp = (s: string) => /^https?:\/\/\S+$/i.test(s.trim());

/** Every field of a campaign; the checks mirror the API's, and its field errors show inline. */
export function CampaignForm({ id, initial }: { id?: string; initial: CampaignInput }) {
  const { notify } = useSession();
  const advertisers = useLoad(() => adminApi.advertisers('active'), []);
  const [f, setF] = useState({
    ...initial,
    image_url: initial.image_url ?? '',
    bid: initial.bid_per_click ? String(initial.bid_per_click) : '',
    total: initial.budget_total === null ? '' : String(initial.budget_total),
    daily: initial.budget_daily === null ? '' : String(initial.budget_daily),
    starts: toLocal(initial.starts_at),
    ends: toLocal(initial.ends_at),
    clickId: initial.click_id_param ?? '',
    window: String(initial.attribution_window_days),
  });
  const set = (changes: Partial<typeof f>) => setF((current) => ({ ...current, ...changes }));
  const form = useFormAction(async () => {
    const bid = Number(f.bid);
    const [total, daily] = [money(f.total), money(f.daily)];
    const window = Number(f.window);
    requireValid({
      advertiser_id: id || f.advertiser_id ? null : 'Choose an advertiser.',
      name: f.name.trim() ? null : 'Enter a name.',
      text: f.text.trim()
        ? f.text.length > 1000
          ? 'At most 1,000 characters.'
          : null
        : 'Enter the ad text.',
      target_url: isHttp(f.target_url) ? null : 'Enter an http(s) address.',
      image_url:
        f.image_url === '' || isHttp(f.image_url)
          ? null
          : 'Enter an http(s) address, or leave it empty.',
      keywords:
        f.keywords.length === 0
          ? 'Add at least one keyword.'
          : f.keywords.length > 100
            ? 'At most 100 keywords.'
            : null,
      bid_per_click: bid > 0 ? null : 'Enter a bid above 0.',
      budget_total:
        total === null || total > 0 ? null : 'Enter a budget above 0, or leave it empty.',
      budget_daily:
        daily === null || (daily > 0 && !(bid > daily))
          ? null
          : 'The daily budget must be at least the bid.',
      ends_at: f.starts && f.ends && f.starts >= f.ends ? 'The end must be after the start.' : null,
      click_id_param:
        f.clickId === '' || /^[A-Za-z][A-Za-z0-9_]{0,31}$/.test(f.clickId)
          ? null
          : 'A letter, then up to 31 letters, digits or _.',
      attribution_window_days:
        Number.isInteger(window) && window >= 1 && window <= 90 ? null : 'Between 1 and 90 days.',
    });
    const input: CampaignInput = {
      ...initial,
      advertiser_id: f.advertiser_id,
      name: f.name.trim(),
      text: f.text.trim(),
      image_url: f.image_url.trim() || null,
      target_url: f.target_url.trim(),
      category: f.category,
      keywords: f.keywords,
      keyword_translations: Object.fromEntries(
        Object.entries(f.keyword_translations).filter(
          ([k, v]) => f.keywords.includes(k) && v.length > 0,
        ),
      ),
      bid_per_click: bid,
      budget_total: total,
      budget_daily: daily,
      starts_at: toIso(f.starts),
      ends_at: toIso(f.ends),
      countries: f.countries,
      devices: f.devices,
      status: f.status,
      click_id_param: f.clickId || null,
      attribution_window_days: window,
    };
    const { advertiser_id, status, ...changes } = input;
    const saved = id
      ? await adminApi.updateCampaign(id, changes)
      : await adminApi.createCampaign({ ...input, advertiser_id, status });
    navigate(`/console/campaigns/${saved.id}`);
    notify(id ? 'Campaign saved.' : `Campaign ${saved.name} created.`);
  });
  const err = (field: string) => form.error?.forField(field);
  return (
    <div class="console-form">
      <form ref={form.formRef} class="form card" onSubmit={form.onSubmit} noValidate>
        <FormError error={form.error} />
        {!id && (
          <div class={err('advertiser_id') ? 'field field--invalid' : 'field'}>
            <label for="advertiser_id">Advertiser</label>
            <select
              id="advertiser_id"
              value={f.advertiser_id}
              aria-invalid={err('advertiser_id') ? 'true' : undefined}
              onChange={(e) => set({ advertiser_id: e.currentTarget.value })}
            >
              <option value="">Choose…</option>
              {advertisers.data?.items.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
            </select>
            {err('advertiser_id') && <p class="field__error">{err('advertiser_id')}</p>}
          </div>
        )}
        <TextField
          id="name"
          label="Name"
          value={f.name}
          onValue={(name) => set({ name })}
          error={err('name')}
          maxLength={200}
        />
        <TextField
          id="text"
          label="Ad text"
          multiline
          value={f.text}
          onValue={(text) => set({ text })}
          error={err('text')}
          maxLength={1000}
        />
        <TextField
          id="target_url"
          label="Landing page"
          type="url"
          value={f.target_url}
          onValue={(target_url) => set({ target_url })}
          error={err('target_url')}
        />
        <TextField
          id="image_url"
          label="Image"
          type="url"
          optional
          value={f.image_url}
          onValue={(image_url) => set({ image_url })}
          error={err('image_url')}
        />
        <ChipsField
          id="keywords"
          label="Keywords"
          values={f.keywords}
          onValues={(keywords) => set({ keywords })}
          error={err('keywords')}
          normalise={(k) => k.toLowerCase()}
          hint="Enter or a comma adds a keyword."
        />
        {f.keywords.map((keyword, at) => (
          <ChipsField
            key={keyword}
            id={`translations-${at}`}
            label={`Translations of “${keyword}”`}
            values={f.keyword_translations[keyword] ?? []}
            onValues={(values) =>
              set({ keyword_translations: { ...f.keyword_translations, [keyword]: values } })
            }
            error={err(`keyword_translations.${keyword}`)}
          />
        ))}
        <div class="field">
          <label for="category">Category</label>
          <select
            id="category"
            value={f.category ?? ''}
            onChange={(e) => set({ category: e.currentTarget.value || null })}
          >
            <option value="">Not categorised</option>
            {CONTENT_CATEGORIES.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
        <TextField
          id="bid_per_click"
          label="Bid per click (US$)"
          type="number"
          value={f.bid}
          onValue={(bid) => set({ bid })}
          error={err('bid_per_click')}
        />
        <TextField
          id="budget_total"
          label="Total budget (US$)"
          type="number"
          optional
          value={f.total}
          onValue={(total) => set({ total })}
          error={err('budget_total')}
        />
        <TextField
          id="budget_daily"
          label="Daily budget (US$)"
          type="number"
          optional
          value={f.daily}
          onValue={(daily) => set({ daily })}
          error={err('budget_daily')}
        />
        <TextField
          id="starts_at"
          label={`Starts (${ZONE})`}
          type="datetime-local"
          optional
          value={f.starts}
          onValue={(starts) => set({ starts })}
          error={err('starts_at')}
          hint={f.starts ? `UTC: ${toIso(f.starts)}` : 'Empty: at once.'}
        />
        <TextField
          id="ends_at"
          label={`Ends (${ZONE})`}
          type="datetime-local"
          optional
          value={f.ends}
          onValue={(ends) => set({ ends })}
          error={err('ends_at')}
          hint={f.ends ? `UTC: ${toIso(f.ends)}` : 'Empty: no end.'}
        />
        <ChipsField
          id="countries"
          label="Countries"
          values={f.countries}
          onValues={(countries) => set({ countries })}
          error={err('countries')}
          normalise={(c) => c.toUpperCase()}
          hint="Two-letter codes (DE, US); none: every country."
        />
        <fieldset class="field checks">
          <legend class="field__label">Devices (none ticked: every device)</legend>
          {DEVICES.map((device) => (
            <label key={device} class="check">
              <input
                type="checkbox"
                checked={f.devices.includes(device)}
                onChange={(e) =>
                  set({
                    devices: e.currentTarget.checked
                      ? [...f.devices, device]
                      : f.devices.filter((d) => d !== device),
                  })
                }
              />
              {device}
            </label>
          ))}
        </fieldset>
        {!id && (
          <div class="field">
            <label for="status">Status</label>
            <select
              id="status"
              value={f.status}
              onChange={(e) => set({ status: e.currentTarget.value as 'active' })}
            >
              <option value="active">Active</option>
              <option value="paused">Paused</option>
            </select>
          </div>
        )}
        <TextField
          id="click_id_param"
          label="Click id parameter"
          optional
          value={f.clickId}
          onValue={(clickId) => set({ clickId })}
          error={err('click_id_param')}
          hint="Added to the landing page's address; empty: none."
        />
        <TextField
          id="attribution_window_days"
          label="Attribution window (days)"
          type="number"
          value={f.window}
          onValue={(window) => set({ window })}
          error={err('attribution_window_days')}
        />
        <div class="form__actions">
          <button type="submit" class="button button--primary" disabled={form.busy}>
            {id ? 'Save campaign' : 'Create campaign'}
          </button>
        </div>
      </form>
      <AdPreview
        ad={{
          name: f.name,
          text: f.text,
          image_url: f.image_url || null,
          target_url: f.target_url,
        }}
      />
    </div>
  );
}

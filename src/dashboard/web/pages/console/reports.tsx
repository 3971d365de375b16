import { useState } from 'preact/hooks';
import { adminApi, reportCsvUrl } from '../../admin-api';
import { LoadError, Loading, PageTitle } from '../../components/ui';
import { DISPLAY_CURRENCY, formatDay } from '../../format';
import { href } from '../../router';
import { useLoad } from '../../session';
import { CampaignReport } from './campaign-report';
import { RangePicker, ReasonsTable, ReportTable, useRange } from './report-parts';

/** The platform's reports per publisher and per model, invalid clicks, and a campaign's. */
export function ReportsPage() {
  const [range, setRange] = useRange();
  const publishers = useLoad(() => adminApi.publisherReport(range), [range.from, range.to]);
  const models = useLoad(() => adminApi.modelReport(range), [range.from, range.to]);
  const names = new Map(
    (publishers.data?.rows ?? []).map((r) => [
      r.publisher_id,
      r.publisher_name ?? r.publisher_email,
    ]),
  );
  return (
    <>
      <PageTitle title="Reports">Reports</PageTitle>
      <RangePicker id="report-range" range={range} onRange={setRange} />
      <p class="range-summary">
        {formatDay(range.from)} – {formatDay(range.to)}{' '}
        <span class="muted">(days in UTC; amounts in {DISPLAY_CURRENCY})</span>
      </p>
      <section aria-labelledby="per-publisher-title">
        <div class="section-head">
          <h2 id="per-publisher-title" class="section-title">
            Per publisher
          </h2>
          <a
            class="button button--small"
            href={reportCsvUrl('publishers', range)}
            download
            id="publishers-csv"
          >
            Download CSV<span class="visually-hidden"> per publisher</span>
          </a>
        </div>
        {publishers.loading && !publishers.data && <Loading what="the report" />}
        {publishers.error && <LoadError error={publishers.error} onRetry={publishers.reload} />}
        {publishers.data && (
          <ReportTable
            id="report-publishers"
            caption="Per publisher"
            first="Publisher"
            rows={publishers.data.rows}
            rowKey={(r) => r.publisher_id}
            rowHead={(r) => (
              <a href={href(`/console/publishers/${r.publisher_id}`)}>
                {r.publisher_name ?? r.publisher_email ?? r.publisher_id.slice(0, 8)}
              </a>
            )}
            totals={publishers.data.totals}
          />
        )}
      </section>
      <section aria-labelledby="reasons-title">
        <h2 id="reasons-title" class="section-title">
          Invalid clicks by reason
        </h2>
        {publishers.data && (
          <ReasonsTable
            id="report-reasons"
            caption="Invalid clicks by reason, all publishers"
            byReason={publishers.data.totals.unbilled_by_reason}
          />
        )}
      </section>
      <section aria-labelledby="per-model-title">
        <div class="section-head">
          <h2 id="per-model-title" class="section-title">
            Per model
          </h2>
          <a
            class="button button--small"
            href={reportCsvUrl('models', range)}
            download
            id="models-csv"
          >
            Download CSV<span class="visually-hidden"> per model</span>
          </a>
        </div>
        {models.error && <LoadError error={models.error} onRetry={models.reload} />}
        {models.data && (
          <ReportTable
            id="report-models"
            caption="Per model"
            first="Model"
            rows={models.data.rows}
            rowKey={(r) => r.model_id}
            rowHead={(r) => (
              <>
                {r.model_name ?? `Model ${r.model_id.slice(0, 8)}`}
                <span class="table__sub">{names.get(r.publisher_id) ?? ''}</span>
              </>
            )}
            totals={models.data.totals}
          />
        )}
      </section>
      <CampaignSection />
    </>
  );
}

/** One campaign's report, chosen from the list: the same report as on its own page. */
function CampaignSection() {
  const campaigns = useLoad(() => adminApi.campaigns({}), []);
  const [id, setId] = useState('');
  const campaign = campaigns.data?.items.find((c) => c.id === id);
  return (
    <section aria-labelledby="campaign-section-title">
      <h2 id="campaign-section-title" class="section-title">
        A campaign
      </h2>
      {campaigns.error && <LoadError error={campaigns.error} onRetry={campaigns.reload} />}
      <div class="field field--inline">
        <label for="report-campaign">Campaign</label>
        <select id="report-campaign" value={id} onChange={(e) => setId(e.currentTarget.value)}>
          <option value="">Choose a campaign</option>
          {campaigns.data?.items.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </div>
      {campaign && <CampaignReport key={campaign.id} id={campaign.id} name={campaign.name} />}
    </section>
  );
}

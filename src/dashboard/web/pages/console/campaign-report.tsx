import { useMemo } from 'preact/hooks';
import { adminApi, type CampaignStats, campaignStatsCsvUrl } from '../../admin-api';
import { LoadError, Loading } from '../../components/ui';
import { UsageChart } from '../../components/usage-chart';
import { eachDay } from '../../dates';
import { formatDay } from '../../format';
import { useLoad } from '../../session';
import type { DayFigures } from '../../stats-data';
import { RangePicker, ReasonsTable, ReportTable, useRange } from './report-parts';

/** Every day of the range for the chart, quiet days as zeros; spend is the money line. */
function chartDays(stats: CampaignStats): DayFigures[] {
  const byDay = new Map(stats.rows.map((r) => [r.date, r]));
  return eachDay(stats.from, stats.to).map((date) => {
    const r = byDay.get(date);
    return {
      date,
      impressions: r?.impressions ?? 0,
      clicks: r?.clicks ?? 0,
      ctr: r?.ctr ?? 0,
      earnings: r?.spend ?? 0,
    };
  });
}

/** A campaign's report for a range: presets, a chart, a table per day, the CSV and reasons. */
export function CampaignReport({ id, name }: { id: string; name: string }) {
  const [range, setRange] = useRange();
  const stats = useLoad(() => adminApi.campaignStats(id, range), [id, range.from, range.to]);
  const days = useMemo(() => (stats.data ? chartDays(stats.data) : []), [stats.data]);
  const words = `${formatDay(range.from)} to ${formatDay(range.to)}`;
  return (
    <section class="card" aria-labelledby="campaign-report-title">
      <div class="section-head">
        <h2 id="campaign-report-title" class="section-title">
          Report
        </h2>
        <a
          class="button button--small"
          href={campaignStatsCsvUrl(id, range)}
          download
          id="campaign-report-csv"
        >
          Download CSV<span class="visually-hidden"> of {name}'s report</span>
        </a>
      </div>
      <RangePicker id="campaign-range" range={range} onRange={setRange} />
      <p class="range-summary">
        {words} <span class="muted">(days in UTC)</span>
      </p>
      {stats.loading && !stats.data && <Loading what="the report" />}
      {stats.error && <LoadError error={stats.error} onRetry={stats.reload} />}
      {stats.data && (
        <>
          <UsageChart
            kind="clicks-earnings"
            days={days}
            moneyLabel="Spend"
            label={`Clicks and spend per day of ${name}, ${words}; the figures are in the table below.`}
          />
          <ReportTable
            id="campaign-report"
            caption="Per day"
            first="Day"
            rows={stats.data.rows}
            rowKey={(r) => r.date}
            rowHead={(r) => formatDay(r.date)}
            totals={stats.data.totals}
          />
          <h3 class="section-title">Invalid clicks by reason</h3>
          <ReasonsTable
            id="campaign-reasons"
            caption="Invalid clicks by reason"
            byReason={stats.data.totals.unbilled_by_reason}
          />
        </>
      )}
    </section>
  );
}

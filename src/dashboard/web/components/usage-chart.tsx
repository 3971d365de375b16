import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartDataset,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  type Plugin,
  PointElement,
  type Scale,
  Tooltip,
} from 'chart.js';
import { useEffect, useRef } from 'preact/hooks';
import { formatCount, formatMoney, formatShortDay } from '../format';
import type { DayFigures } from '../stats-data';

Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  Legend,
);
Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;
// Axis text and series follow the page's theme (prefers-color-scheme) when the chart is drawn.
const dark = (): boolean => window.matchMedia?.('(prefers-color-scheme: dark)').matches === true;
Chart.defaults.color = dark() ? '#aab3c3' : '#4b5563';

const COLORS = dark()
  ? { impressions: '#5d7fc9', clicks: '#8cb4ff', earnings: '#6fdcb0' }
  : { impressions: '#7da2f0', clicks: '#1d4ed8', earnings: '#047857' };

/** The room a day's label needs on the x-axis ("Nov 21" and a gap), in pixels. */
const DAY_LABEL_WIDTH = 56;

/**
 * Whether the x-axis labels day `index` of `count` at `width` pixels: every step-th day
 * counted back from the last, so the last (today, by default) always has its label.
 * Chart.js's own skipping keeps the first label instead, and may drop the last.
 */
function labelsDay(index: number, count: number, width: number): boolean {
  const fit = Math.max(2, Math.floor(width / DAY_LABEL_WIDTH));
  return (count - 1 - index) % Math.ceil(count / fit) === 0;
}

/** Lists the day labels the x-axis shows in the canvas's `data-day-labels` (`|` between). */
const dayLabelsAttribute: Plugin<'bar' | 'line'> = {
  id: 'dayLabelsAttribute',
  afterUpdate: (chart) => {
    chart.canvas.dataset.dayLabels = chart.scales.x.ticks
      .map((tick) => tick.label)
      .filter((label) => typeof label === 'string' && label !== '')
      .join('|');
  },
};

/**
 * Impressions alone, or clicks (bars, left axis) with earnings (line, right axis): clicks
 * are a few percent of impressions, so on one axis they would not show.
 */
export type UsageChartKind = 'impressions' | 'clicks-earnings';

export function UsageChart(props: {
  kind: UsageChartKind;
  days: DayFigures[];
  label: string;
  /** The money line's name: "Earnings" for a publisher, "Spend" for a campaign. */
  moneyLabel?: string;
}) {
  const { kind, days, label, moneyLabel = 'Earnings' } = props;
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const datasets: ChartDataset<'bar' | 'line', number[]>[] =
      kind === 'impressions'
        ? [
            {
              label: 'Impressions',
              data: days.map((d) => d.impressions),
              backgroundColor: COLORS.impressions,
              yAxisID: 'count',
            },
          ]
        : [
            {
              type: 'line',
              label: moneyLabel,
              data: days.map((d) => d.earnings),
              borderColor: COLORS.earnings,
              backgroundColor: COLORS.earnings,
              pointRadius: days.length > 45 ? 0 : 2,
              tension: 0.25,
              yAxisID: 'money',
            },
            {
              label: 'Clicks',
              data: days.map((d) => d.clicks),
              backgroundColor: COLORS.clicks,
              yAxisID: 'count',
            },
          ];
    const labels = days.map((d) => formatShortDay(d.date));
    const chart = new Chart<'bar' | 'line', number[], string>(canvas.current, {
      type: 'bar',
      data: { labels, datasets },
      plugins: [dayLabelsAttribute],
      options: {
        // The chart redraws on every change of range; motion adds nothing to the numbers.
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        interaction: { mode: 'index', intersect: false },
        plugins: {
          legend: { position: 'bottom' },
          tooltip: {
            callbacks: {
              label: (item) =>
                `${item.dataset.label ?? ''}: ${
                  item.dataset.yAxisID === 'money'
                    ? formatMoney(item.parsed.y ?? 0)
                    : formatCount(item.parsed.y ?? 0)
                }`,
            },
          },
        },
        scales: {
          x: {
            grid: { display: false },
            ticks: {
              autoSkip: false,
              maxRotation: 0,
              callback(this: Scale, _value, index) {
                return labelsDay(index, labels.length, this.width) ? labels[index] : null;
              },
            },
          },
          count: {
            type: 'linear',
            position: 'left',
            beginAtZero: true,
            ticks: { precision: 0, callback: (v) => formatCount(Number(v)) },
          },
          ...(kind === 'clicks-earnings'
            ? {
                money: {
                  type: 'linear' as const,
                  position: 'right' as const,
                  beginAtZero: true,
                  grid: { drawOnChartArea: false },
                  // Steps of at least a cent, as amounts are shown to the cent.
                  ticks: { precision: 2, callback: (v: number | string) => formatMoney(Number(v)) },
                },
              }
            : {}),
        },
      },
    });
    return () => chart.destroy();
  }, [kind, days, moneyLabel]);
  return (
    <div class="chart">
      <canvas ref={canvas} role="img" aria-label={label}>
        {label}
      </canvas>
    </div>
  );
}

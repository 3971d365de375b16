/**
 * Why a fetch-ads request got no (billable) ad: the list, in the order the stats show
 * them. Recorded today: `no_match` (no servable campaign matched), `no_targeted_match`
 * (campaigns matched, but their location or device targeting excluded the user),
 * `sensitive_topic` (the conversation touched a sensitive topic), `frequency_cap` (the session had its ads),
 * `relevance_floor` and `blocked` (the model's controls, or the request's excluded topics,
 * refused every match) and `test` (a test key's request, whatever it was answered: its ads
 * are never billed, so they are no fill of the publisher's inventory).
 */
export const NO_FILL_REASONS = [
  'no_match',
  'no_targeted_match',
  'sensitive_topic',
  'frequency_cap',
  'relevance_floor',
  'blocked',
  'test',
] as const;

export type NoFillReason = (typeof NO_FILL_REASONS)[number];

/** How one fetch-ads request ended: an ad served to a live key, or a no-fill and its reason. */
export type FillOutcome = 'filled' | NoFillReason;

/** Every outcome, as stored in `daily_fill_stats.outcome`. */
export const FILL_OUTCOMES: readonly FillOutcome[] = ['filled', ...NO_FILL_REASONS];

/** Requests counted for one (UTC day, publisher, model, outcome). */
export interface FillCount {
  day: string;
  publisherId: string;
  modelId: string;
  outcome: FillOutcome;
  count: number;
}

/** One model's counts on one day. */
interface ModelCounts {
  publisherId: string;
  counts: Partial<Record<FillOutcome, number>>;
}

/**
 * Counts outcomes in memory until they are written: day → model → outcome → count, so a
 * request costs two map lookups and an increment, with no string built (a `day|model|outcome`
 * key cost three times as much), and the memory held grows with models × outcomes, never
 * with traffic.
 */
export class FillTally {
  private days = new Map<string, Map<string, ModelCounts>>();

  /** Nothing counted since the last `take()`. */
  get empty(): boolean {
    return this.days.size === 0;
  }

  add(day: string, publisherId: string, modelId: string, outcome: FillOutcome, count = 1): void {
    let models = this.days.get(day);
    if (!models) this.days.set(day, (models = new Map<string, ModelCounts>()));
    let model = models.get(modelId);
    if (!model) models.set(modelId, (model = { publisherId, counts: {} }));
    model.counts[outcome] = (model.counts[outcome] ?? 0) + count;
  }

  /**
   * Everything counted so far, in the table's key order (day, model, outcome), so that
   * instances writing the same rows lock them in the same order and cannot deadlock each
   * other; the tally starts again at zero.
   */
  take(): FillCount[] {
    const taken: FillCount[] = [];
    for (const [day, models] of this.days) {
      for (const [modelId, { publisherId, counts }] of models) {
        for (const outcome of FILL_OUTCOMES) {
          const count = counts[outcome];
          if (count) taken.push({ day, publisherId, modelId, outcome, count });
        }
      }
    }
    this.days = new Map();
    const key = (c: FillCount) => `${c.day}|${c.modelId}|${c.outcome}`;
    return taken.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  }

  /** Counts back, added to whatever arrived meanwhile: a write that failed loses nothing. */
  restore(counts: readonly FillCount[]): void {
    for (const c of counts) this.add(c.day, c.publisherId, c.modelId, c.outcome, c.count);
  }
}

import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { CampaignChangeNotifier } from '@/campaigns/change-notices/campaign-change-notifier.service';
import { DEFAULT_CLICK_ID_PARAM } from '@/campaigns/entities/campaign.entity';
import {
  type ServabilityProbe,
  type ServableCampaign,
  ServableCampaignsReader,
} from '@/campaigns/campaigns/servable-campaigns.reader';
import { AppConfig } from '@/config/app-config';
import { MetricsService } from '@/metrics/metrics.service';
import { CampaignIndex } from './matching/campaign-index';
import { buildCampaignIndex, CampaignIndexBuilder } from './matching/campaign-index-builder';
import type { IndexedCampaign, MatchRequest, Selection } from './matching/matching.types';

/**
 * The periodic refresh waits at least this many times the last refresh's duration (see
 * `scheduleRefresh`): a rebuild no longer holds the event loop, but at a million campaigns
 * it still takes tens of seconds of database and CPU time.
 */
const REFRESH_COST_FACTOR = 5;

/** The build gives the event loop a turn after about this much work. */
const BUILD_SLICE_MS = 5;

const DAY_MS = 86_400_000;

/**
 * A rebuild after a campaign change that fails is retried after this long, then after
 * twice as long each time, RETRY_ATTEMPTS times (0.5 s to 16 s apart, about 30 s in all).
 * After that the periodic refresh repairs the index: the change moved the probe.
 */
const RETRY_FIRST_DELAY_MS = 500;
const RETRY_ATTEMPTS = 6;

/** What the click path needs of a campaign, served from memory when it can. */
export interface ServedCampaign {
  id: string;
  targetUrl: string;
  /** The landing URL's click id parameter; null: none. */
  clickIdParam: string | null;
}

/** What the live index was built from, to tell at the periodic refresh whether it is stale. */
interface BuiltFrom {
  /** The servability probe taken just before the snapshot was read. */
  probe: ServabilityProbe;
  /**
   * Campaigns excluded on notice since that probe began to be taken: the probe's `exhausted`
   * counts each such campaign once, as it ran out.
   */
  exclusions: Set<string>;
  /** When the clock next changes what is servable: a schedule bound, or UTC midnight. */
  nextClockChange: number;
}

/**
 * Owns the in-memory index of servable campaigns. A rebuild makes a new index and swaps it
 * in, so a request always matches against one consistent snapshot. Rebuilt after every
 * campaign change announced by CampaignChangeNotifier (awaited, so the change is live when that
 * call returns; a failed one is retried, see `rebuildAfterChange`) and, at CAMPAIGN_INDEX_REFRESH_SECONDS, when the servability probe or the
 * clock says the snapshot may be stale (changes made on other instances without Redis,
 * schedules, the UTC day of daily budgets). A burst of changes costs at most the running
 * rebuild and one more, queued: every caller in the burst waits for that queued one.
 *
 * A campaign whose budget runs out is not rebuilt for: it is excluded from the live index
 * on notice (`onExhausted`, from this instance or another through Redis), and from the
 * index being built if its snapshot was read before the notice.
 */
@Injectable()
export class CampaignIndexService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(CampaignIndexService.name);
  private index: CampaignIndex = buildCampaignIndex([]);
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private stopped = false;
  private lastRefreshMs = 0;
  private builtFrom: BuiltFrom | null = null;
  /**
   * The exclusion sets of the live index's build and of a build in progress: each notice
   * goes into all of them, so a build carries over the exclusions made since it began.
   */
  private readonly exclusionLogs = new Set<Set<string>>();

  constructor(
    changes: CampaignChangeNotifier,
    private readonly snapshots: ServableCampaignsReader,
    private readonly config: AppConfig,
    private readonly metrics: MetricsService,
  ) {
    metrics.readFrom('campaignIndexSize', () => this.index.size);
    changes.onChange(() => this.rebuildAfterChange());
    changes.onExhausted((campaignId) => this.exclude(campaignId));
  }

  get current(): CampaignIndex {
    return this.index;
  }

  /**
   * The campaign as the live index serves it; undefined when it is not served. Clicks
   * redirect from it instead of reading the campaign per click.
   */
  served(id: string): ServedCampaign | undefined {
    const campaign = this.index.get(id);
    if (!campaign) return undefined;
    const { targetUrl, clickIdParam = DEFAULT_CLICK_ID_PARAM } = campaign;
    return { id, targetUrl, clickIdParam };
  }

  /**
   * How the campaign would match `request` were it the only one: whether it matches at all,
   * and how well, apart from the campaigns that outbid it. For an operator's "try a
   * conversation"; it builds a one-campaign index, so it is never on the ad path.
   */
  matchAlone(campaign: IndexedCampaign, request: MatchRequest): Selection {
    return buildCampaignIndex([campaign]).select(request, null, 1);
  }

  /** Built from the database at least once (readiness); before that nothing is served. */
  get loaded(): boolean {
    return this.builtFrom !== null;
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.rebuild();
    this.scheduleRefresh();
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
  }

  /** Stops serving a campaign at once, here and in any index being built. O(1). */
  exclude(campaignId: string): void {
    this.index.exclude(campaignId);
    for (const log of this.exclusionLogs) log.add(campaignId);
  }

  /**
   * The rebuild after a campaign change made through the app. The change is committed
   * already, so a failed rebuild must not fail the call that made it (a caller told it
   * failed would repeat it): it is logged and retried with backoff.
   */
  private async rebuildAfterChange(): Promise<void> {
    try {
      await this.rebuild();
    } catch (error) {
      this.logger.error(
        `index rebuild after a campaign change failed, retrying: ${(error as Error).message}`,
        (error as Error).stack,
      );
      this.retryRebuild(1);
    }
  }

  /** Failures while a retry is already waiting join that retry. */
  private retryRebuild(attempt: number): void {
    if (this.stopped || this.retryTimer) return;
    const delay = RETRY_FIRST_DELAY_MS * 2 ** (attempt - 1);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.rebuild().then(
        () => this.logger.log(`index rebuilt on retry ${attempt}`),
        (error: Error) => {
          if (attempt < RETRY_ATTEMPTS) {
            this.logger.error(`index rebuild retry ${attempt} failed: ${error.message}`);
            this.retryRebuild(attempt + 1);
          } else {
            this.logger.error(
              `index rebuild failed ${attempt} retries; the periodic refresh will repair it`,
              error.stack,
            );
          }
        },
      );
    }, delay);
    this.retryTimer.unref();
  }

  /**
   * The periodic refresh: rebuilds unless the clock and the servability probe both say
   * nothing that decides servability has changed since the live index was built.
   */
  async refresh(): Promise<void> {
    if (await this.isUpToDate()) return;
    await this.rebuild();
  }

  /**
   * The periodic refresh waits CAMPAIGN_INDEX_REFRESH_SECONDS, and at least
   * REFRESH_COST_FACTOR times the last refresh's duration. Changes made through the app
   * still rebuild at once.
   */
  private scheduleRefresh(): void {
    if (this.stopped) return;
    const wait = Math.max(
      this.config.campaignIndexRefreshMs,
      REFRESH_COST_FACTOR * this.lastRefreshMs,
    );
    this.timer = setTimeout(() => {
      const started = Date.now();
      this.refresh()
        .catch((error: Error) => this.logger.error('index refresh failed', error.stack))
        .finally(() => {
          this.lastRefreshMs = Date.now() - started;
          this.scheduleRefresh();
        });
    }, wait);
    this.timer.unref();
  }

  /**
   * Up to date while the clock has not passed a schedule bound or UTC midnight, nothing but
   * spend has changed since the build's probe, and as many campaigns have run out since then
   * as this index was told of (and so excludes). A notice that the probe does not count (a
   * campaign that ran out just before the build's probe, or that had run out on another
   * instance while still served here) makes the counts differ: one rebuild more. Only such
   * a notice and a run-out not told of in the same interval could cancel out; the first
   * click on that campaign here is then unbilled and excludes it. The probe reads one row.
   */
  private async isUpToDate(): Promise<boolean> {
    const builtFrom = this.builtFrom;
    if (builtFrom === null || Date.now() >= builtFrom.nextClockChange) return false;
    const probe = await this.snapshots.probe(new Date());
    return (
      this.builtFrom === builtFrom &&
      probe.other === builtFrom.probe.other &&
      probe.exhausted === builtFrom.probe.exhausted + builtFrom.exclusions.size
    );
  }

  /**
   * A rebuild that starts after this call, so the caller sees every change made before it:
   * the running one would not (it may have read the database already), so one is queued
   * behind it, and callers arriving while one is queued share it.
   */
  rebuild(): Promise<void> {
    if (this.queued) return this.queued;
    if (!this.running) return this.start();
    this.queued = this.running
      .catch(() => undefined)
      .then(() => {
        this.queued = null;
        return this.start();
      });
    return this.queued;
  }

  private start(): Promise<void> {
    const run = this.build().finally(() => {
      if (this.running === run) this.running = null;
    });
    this.running = run;
    return run;
  }

  /**
   * Reads the snapshot page by page into a builder and builds in slices of a few ms, so
   * that neither the whole snapshot nor a long stretch of the event loop is taken, then
   * swaps the new index in. Exclusions noticed from the probe on are applied to the new
   * index before the swap: the snapshot may have read such a campaign before its budget
   * ran out, and must not bring it back.
   */
  private async build(): Promise<void> {
    const now = new Date();
    const started = performance.now();
    const exclusions = new Set<string>();
    this.exclusionLogs.add(exclusions);
    try {
      const probe = await this.snapshots.probe(now);
      const builder = new CampaignIndexBuilder();
      const facts = await this.snapshots.readServable(now, async (batch) => {
        for (const campaign of batch) builder.add(toIndexed(campaign));
        await new Promise<void>((resolve) => setImmediate(resolve));
      });
      const index = await builder.buildInSlices(BUILD_SLICE_MS);
      for (const campaignId of exclusions) index.exclude(campaignId);
      this.index = index;
      if (this.builtFrom) this.exclusionLogs.delete(this.builtFrom.exclusions);
      this.builtFrom = {
        probe,
        exclusions,
        nextClockChange: Math.min(
          facts.nextScheduleChange ?? Number.POSITIVE_INFINITY,
          (Math.floor(now.getTime() / DAY_MS) + 1) * DAY_MS,
        ),
      };
      this.metrics.campaignIndexRebuilds.inc({ result: 'ok' });
      this.metrics.campaignIndexRebuildDuration.observe((performance.now() - started) / 1000);
    } catch (error) {
      this.exclusionLogs.delete(exclusions);
      this.metrics.campaignIndexRebuilds.inc({ result: 'failed' });
      throw error;
    }
  }
}

function toIndexed(campaign: ServableCampaign): IndexedCampaign {
  return {
    id: campaign.id,
    advertiserId: campaign.advertiserId,
    name: campaign.name,
    text: campaign.text,
    imageUrl: campaign.imageUrl,
    targetUrl: campaign.targetUrl,
    clickIdParam: campaign.clickIdParam,
    category: campaign.category,
    keywords: campaign.keywords,
    translations: campaign.translations,
    bidMicros: campaign.bidMicros,
    countries: campaign.countries,
    devices: campaign.devices,
    createdAt: campaign.createdAt.getTime(),
  };
}

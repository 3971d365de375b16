import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { CampaignsService } from '@/campaigns/campaigns.service';
import {
  type ServableCampaign,
  ServableCampaignsReader,
} from '@/campaigns/servable-campaigns.reader';
import { AppConfig } from '@/config/app-config';
import { CampaignIndex } from './matching/campaign-index';
import type { IndexedCampaign } from './matching/matching.types';

/**
 * Owns the in-memory index of servable campaigns. A rebuild makes a new immutable index and
 * swaps it in, so a request always matches against one consistent snapshot. Rebuilt after
 * every campaign change made through CampaignsService (awaited, so the change is live when
 * that call returns) and at CAMPAIGN_INDEX_REFRESH_SECONDS for schedules and budgets.
 * A burst of changes (say, many clicks exhausting budgets) costs at most the running
 * rebuild and one more, queued: every caller in the burst waits for that queued one.
 */
/** The periodic rebuild takes at most about a tenth of the time (see `scheduleRefresh`). */
const REFRESH_COST_FACTOR = 10;

@Injectable()
export class CampaignIndexService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(CampaignIndexService.name);
  private index: CampaignIndex = CampaignIndex.build([]);
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private lastBuildMs = 0;

  constructor(
    private readonly campaigns: CampaignsService,
    private readonly snapshots: ServableCampaignsReader,
    private readonly config: AppConfig,
  ) {
    this.campaigns.onChange(() => this.rebuild());
    // Clicks redirect from the served snapshot instead of reading the campaign per click.
    this.campaigns.registerServed((id) => this.index.get(id));
  }

  get current(): CampaignIndex {
    return this.index;
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.rebuild();
    this.scheduleRefresh();
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  /**
   * The periodic rebuild waits CAMPAIGN_INDEX_REFRESH_SECONDS, and at least
   * REFRESH_COST_FACTOR times the last rebuild's duration: at a million campaigns a rebuild
   * takes tens of seconds (much of it on the event loop), and back-to-back rebuilds would
   * leave no time to serve ads. Changes made through the app still rebuild at once.
   */
  private scheduleRefresh(): void {
    if (this.stopped) return;
    const wait = Math.max(
      this.config.campaignIndexRefreshMs,
      REFRESH_COST_FACTOR * this.lastBuildMs,
    );
    this.timer = setTimeout(() => {
      this.rebuild()
        .catch((error: Error) => this.logger.error('index rebuild failed', error.stack))
        .finally(() => this.scheduleRefresh());
    }, wait);
    this.timer.unref();
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

  private async build(): Promise<void> {
    const started = Date.now();
    const servable = await this.snapshots.findServable(new Date());
    this.index = CampaignIndex.build(servable.map(toIndexed));
    this.lastBuildMs = Date.now() - started;
  }
}

function toIndexed(campaign: ServableCampaign): IndexedCampaign {
  return {
    id: campaign.id,
    name: campaign.name,
    text: campaign.text,
    imageUrl: campaign.imageUrl,
    targetUrl: campaign.targetUrl,
    keywords: campaign.keywords,
    bidMicros: campaign.bidMicros,
    countries: campaign.countries,
    devices: campaign.devices,
    createdAt: campaign.createdAt.getTime(),
  };
}

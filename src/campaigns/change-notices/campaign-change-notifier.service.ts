import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '@/config/app-config';
import { RedisChangeChannel, type RemoteAnnouncement } from './redis-change-channel';

export type CampaignChangeListener = () => Promise<void>;
/** Told that a campaign can no longer pay for a click; must be quick (no rebuild). */
export type CampaignExhaustedListener = (campaignId: string) => void;

/**
 * Tells whatever caches campaigns (the ad index) that campaigns changed: this instance's
 * listeners at once, awaited, so a change is live when the call that made it returns; and,
 * with REDIS_URL, every other instance through a Redis channel. Without Redis the other
 * instances catch up at their periodic rebuild (CAMPAIGN_INDEX_REFRESH_SECONDS).
 */
@Injectable()
export class CampaignChangeNotifier implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(CampaignChangeNotifier.name);
  private readonly listeners: CampaignChangeListener[] = [];
  private readonly exhaustedListeners: CampaignExhaustedListener[] = [];
  private channel: RedisChangeChannel | null = null;
  private remoteRun: Promise<void> | null = null;
  private remoteAgain = false;

  constructor(private readonly config: AppConfig) {}

  async onModuleInit(): Promise<void> {
    if (!this.config.redisUrl) return;
    this.channel = await RedisChangeChannel.open(
      this.config.redisUrl,
      (announcement) => this.onRemote(announcement),
      this.logger,
    );
  }

  onApplicationShutdown(): void {
    this.channel?.close();
  }

  onChange(listener: CampaignChangeListener): void {
    this.listeners.push(listener);
  }

  onExhausted(listener: CampaignExhaustedListener): void {
    this.exhaustedListeners.push(listener);
  }

  /**
   * A campaign's budget ran out: listeners drop it at once, here and on the other
   * instances, without rebuilding the whole index for one campaign.
   */
  async notifyExhausted(campaignId: string): Promise<void> {
    for (const listener of this.exhaustedListeners) listener(campaignId);
    await this.channel
      ?.publish({ kind: 'exhausted', campaignId })
      .catch((error: Error) => this.logFailure(error));
  }

  /**
   * Called after a change has been committed, so nothing here may fail the call that made
   * it: an error answer would lead a caller to retry and repeat the change (say, create a
   * second campaign). A failing listener is logged and repairs itself (the ad index retries
   * its rebuild and refreshes periodically); a lost announcement only delays the other
   * instances until their periodic rebuild.
   */
  async notifyChanged(): Promise<void> {
    await this.runListeners();
    await this.channel?.publish().catch((error: Error) => this.logFailure(error));
  }

  /**
   * A burst of announcements (say, many clicks exhausting budgets at once on other
   * instances) becomes one rebuild now and at most one more, not one per message.
   */
  private onRemote(announcement: RemoteAnnouncement): void {
    if (announcement.kind === 'exhausted') {
      for (const listener of this.exhaustedListeners) listener(announcement.campaignId);
      return;
    }
    if (this.remoteRun) {
      this.remoteAgain = true;
      return;
    }
    this.remoteRun = (async () => {
      do {
        this.remoteAgain = false;
        await this.runListeners();
      } while (this.remoteAgain);
      this.remoteRun = null;
    })();
  }

  /** Runs every listener in turn; one that fails is logged and does not stop the others. */
  private async runListeners(): Promise<void> {
    for (const listener of this.listeners) {
      await listener().catch((error: Error) => this.logFailure(error));
    }
  }

  private logFailure(error: Error): void {
    this.logger.error(`campaign change not propagated: ${error.message}`, error.stack);
  }
}

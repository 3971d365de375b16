import { Injectable } from '@nestjs/common';
import type { Page } from '@/common/dto/page-query.dto';
import { newId } from '@/database/columns';
import { AdvertisersRepository } from './advertisers.repository';
import { CampaignChangeNotifier } from '@/campaigns/change-notices/campaign-change-notifier.service';
import { Advertiser, AdvertiserStatus } from '@/campaigns/entities/advertiser.entity';
import { ServabilityRepository } from '@/campaigns/change-notices/servability.repository';

export interface AdvertiserChanges {
  name?: string;
  contactEmail?: string | null;
  status?: AdvertiserStatus;
}

/**
 * Advertisers: who pays for campaigns (the domain layer: entities in and out). An inactive
 * advertiser's campaigns are not served, so a status change is counted in the servability
 * version (in its transaction) and announced to the ad index.
 */
@Injectable()
export class AdvertisersService {
  constructor(
    private readonly advertisers: AdvertisersRepository,
    private readonly changes: CampaignChangeNotifier,
    private readonly servability: ServabilityRepository,
  ) {}

  async create(name: string, contactEmail: string | null = null): Promise<Advertiser> {
    const now = new Date();
    return this.advertisers.insert({
      id: newId(),
      name,
      contactEmail,
      status: 'active',
      createdAt: now,
      updatedAt: now,
    });
  }

  /** Ids of the advertisers whose campaigns may be served. */
  activeIds(): Promise<string[]> {
    return this.advertisers.activeIds();
  }

  findById(id: string): Promise<Advertiser | null> {
    return this.advertisers.findById(id);
  }

  /** Newest first. */
  list(
    status: AdvertiserStatus | undefined,
    page: Page,
  ): Promise<{ items: Advertiser[]; total: number }> {
    return this.advertisers.listNewestFirst(status, page);
  }

  /**
   * Applies the fields given (`contactEmail: null` clears it); returns the result. The row
   * is read again under lock, so that whether the status changes is judged against what is
   * stored, not against `advertiser` as its caller read it before a concurrent update.
   */
  async update(advertiser: Advertiser, changes: AdvertiserChanges): Promise<Advertiser> {
    const { updated, statusChanged } = await this.advertisers.transaction(async (transaction) => {
      const current =
        (await this.advertisers.lockForUpdate(transaction, advertiser.id)) ?? advertiser;
      const next: Advertiser = {
        ...current,
        name: changes.name ?? current.name,
        contactEmail:
          changes.contactEmail === undefined ? current.contactEmail : changes.contactEmail,
        status: changes.status ?? current.status,
        updatedAt: new Date(),
      };
      await this.advertisers.update(transaction, current.id, {
        name: next.name,
        contactEmail: next.contactEmail,
        status: next.status,
        updatedAt: next.updatedAt,
      });
      // Whether the advertiser's campaigns may be served has changed; its name and contact
      // are in no ad.
      const changed = next.status !== current.status;
      if (changed) await this.servability.countChange(transaction);
      return { updated: next, statusChanged: changed };
    });
    if (statusChanged) await this.changes.notifyChanged();
    return updated;
  }
}

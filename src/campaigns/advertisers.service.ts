import { Injectable } from '@nestjs/common';
import type { Page } from '@/common/dto/page-query.dto';
import { newId } from '@/database/columns';
import { AdvertisersRepository } from './advertisers.repository';
import { CampaignChangeNotifier } from './campaign-change-notifier.service';
import { Advertiser, AdvertiserStatus } from './entities/advertiser.entity';

export interface AdvertiserChanges {
  name?: string;
  contactEmail?: string | null;
  status?: AdvertiserStatus;
}

/**
 * Advertisers: who pays for campaigns (the domain layer: entities in and out). An inactive
 * advertiser's campaigns are not served, so a status change is announced to the ad index.
 */
@Injectable()
export class AdvertisersService {
  constructor(
    private readonly advertisers: AdvertisersRepository,
    private readonly changes: CampaignChangeNotifier,
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

  /** Applies the fields given (`contactEmail: null` clears it); returns the result. */
  async update(advertiser: Advertiser, changes: AdvertiserChanges): Promise<Advertiser> {
    const statusChanged = changes.status !== undefined && changes.status !== advertiser.status;
    const updated: Advertiser = {
      ...advertiser,
      name: changes.name ?? advertiser.name,
      contactEmail:
        changes.contactEmail === undefined ? advertiser.contactEmail : changes.contactEmail,
      status: changes.status ?? advertiser.status,
      updatedAt: new Date(),
    };
    await this.advertisers.update(advertiser.id, {
      name: updated.name,
      contactEmail: updated.contactEmail,
      status: updated.status,
      updatedAt: updated.updatedAt,
    });
    // Whether the advertiser's campaigns may be served has changed.
    if (statusChanged) await this.changes.notifyChanged();
    return updated;
  }
}

import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import type { Page } from '@/common/dto/page-query.dto';
import { dialectOf } from '@/database/dialect';
import { transactionWithRetry } from '@/database/sql';
import { DailyStat } from '@/earnings/entities/daily-stat.entity';
import { Advertiser, type AdvertiserStatus } from '@/campaigns/entities/advertiser.entity';
import { Campaign } from '@/campaigns/entities/campaign.entity';

/** What an advertiser's update writes: every field an operator may change, and the time. */
export type AdvertiserFields = Pick<Advertiser, 'name' | 'contactEmail' | 'status' | 'updatedAt'>;

/** The advertisers table's queries. */
@Injectable()
export class AdvertisersRepository {
  constructor(@InjectRepository(Advertiser) private readonly advertisers: Repository<Advertiser>) {}

  /**
   * Runs `work` in one transaction, run again whole when the database reports contention;
   * `work` hands the transaction's manager to the repositories' methods.
   */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return transactionWithRetry(this.advertisers.manager, work);
  }

  /** Stores a new advertiser; returns the stored entity. */
  insert(advertiser: Advertiser): Promise<Advertiser> {
    return this.advertisers.save(this.advertisers.create(advertiser));
  }

  findById(id: string): Promise<Advertiser | null> {
    return this.advertisers.findOneBy({ id });
  }

  /**
   * The advertiser, in the caller's transaction. MySQL locks the row so that concurrent
   * updates see each other's status; SQLite serialises writers anyway and has no row locks.
   */
  lockForUpdate(manager: EntityManager, id: string): Promise<Advertiser | null> {
    return manager.findOne(Advertiser, {
      where: { id },
      ...(dialectOf(manager) === 'mysql' ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }

  /** Ids of the advertisers whose status is active. */
  async activeIds(): Promise<string[]> {
    const rows = await this.advertisers.find({ select: { id: true }, where: { status: 'active' } });
    return rows.map((row) => row.id);
  }

  /** One page of the advertisers (of one status, if given), newest first, and their count. */
  async listNewestFirst(
    status: AdvertiserStatus | undefined,
    page: Page,
  ): Promise<{ items: Advertiser[]; total: number }> {
    const [items, total] = await this.advertisers.findAndCount({
      where: status ? { status } : {},
      order: { createdAt: 'DESC', id: 'DESC' },
      skip: page.offset,
      take: page.perPage,
    });
    return { items, total };
  }

  /**
   * The advertisers with an ad served to any model of the publisher, ever (live or test
   * keys), by name. Read from the daily roll-ups, which are kept for good, through their
   * (publisher_id, day) index.
   */
  shownToPublisher(publisherId: string): Promise<Pick<Advertiser, 'id' | 'name'>[]> {
    return this.advertisers
      .createQueryBuilder('advertiser')
      .select(['advertiser.id', 'advertiser.name'])
      .where((query) => {
        const shown = query
          .subQuery()
          .select('campaign.advertiserId')
          .from(DailyStat, 'stat')
          .innerJoin(Campaign, 'campaign', 'campaign.id = stat.campaignId')
          .where('stat.publisherId = :publisherId')
          .andWhere('(stat.impressions > 0 OR stat.testImpressions > 0)')
          .getQuery();
        return `advertiser.id IN ${shown}`;
      })
      .setParameter('publisherId', publisherId)
      .orderBy('advertiser.name', 'ASC')
      .addOrderBy('advertiser.id', 'ASC')
      .getMany();
  }

  /** Writes an operator's changes, in the caller's transaction. */
  async update(manager: EntityManager, id: string, fields: AdvertiserFields): Promise<void> {
    await manager.update(Advertiser, { id }, fields);
  }
}

import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import type { Page } from '@/common/dto/page-query.dto';
import { Advertiser, type AdvertiserStatus } from './entities/advertiser.entity';

/** What an advertiser's update writes: every field an operator may change, and the time. */
export type AdvertiserFields = Pick<Advertiser, 'name' | 'contactEmail' | 'status' | 'updatedAt'>;

/** The advertisers table's queries. */
@Injectable()
export class AdvertisersRepository {
  constructor(@InjectRepository(Advertiser) private readonly advertisers: Repository<Advertiser>) {}

  /** Stores a new advertiser; returns the stored entity. */
  insert(advertiser: Advertiser): Promise<Advertiser> {
    return this.advertisers.save(this.advertisers.create(advertiser));
  }

  findById(id: string): Promise<Advertiser | null> {
    return this.advertisers.findOneBy({ id });
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

  async update(id: string, fields: AdvertiserFields): Promise<void> {
    await this.advertisers.update({ id }, fields);
  }
}

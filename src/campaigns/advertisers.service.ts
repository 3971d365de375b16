import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ProblemException } from '@/common/problem';
import { newId } from '@/database/columns';
import { CampaignChangeNotifier } from './campaign-change-notifier.service';
import {
  AdvertiserDto,
  AdvertiserListQueryDto,
  AdvertiserPageDto,
  CreateAdvertiserDto,
  toAdvertiserDto,
  UpdateAdvertiserDto,
} from './dto/advertiser.dto';
import { pageOf } from '@/common/dto/page-query.dto';
import { Advertiser } from './entities/advertiser.entity';

/** Advertisers: who pays for campaigns. An inactive advertiser's campaigns are not served. */
@Injectable()
export class AdvertisersService {
  constructor(
    @InjectRepository(Advertiser) private readonly advertisers: Repository<Advertiser>,
    private readonly changes: CampaignChangeNotifier,
  ) {}

  async create(name: string, contactEmail: string | null = null): Promise<Advertiser> {
    const now = new Date();
    return this.advertisers.save(
      this.advertisers.create({
        id: newId(),
        name,
        contactEmail,
        status: 'active',
        createdAt: now,
        updatedAt: now,
      }),
    );
  }

  /** Ids of the advertisers whose campaigns may be served. */
  async activeIds(): Promise<string[]> {
    const rows = await this.advertisers.find({ select: { id: true }, where: { status: 'active' } });
    return rows.map((row) => row.id);
  }

  findById(id: string): Promise<Advertiser | null> {
    return this.advertisers.findOneBy({ id });
  }

  async listAdvertisers(query: AdvertiserListQueryDto): Promise<AdvertiserPageDto> {
    const { page, perPage, offset } = pageOf(query);
    const [items, total] = await this.advertisers.findAndCount({
      where: query.status ? { status: query.status } : {},
      order: { createdAt: 'DESC', id: 'DESC' },
      skip: offset,
      take: perPage,
    });
    return { items: items.map(toAdvertiserDto), page, per_page: perPage, total };
  }

  async getAdvertiser(id: string): Promise<AdvertiserDto> {
    return toAdvertiserDto(await this.require(id));
  }

  async createAdvertiser(dto: CreateAdvertiserDto): Promise<AdvertiserDto> {
    return toAdvertiserDto(await this.create(dto.name, dto.contact_email ?? null));
  }

  async updateAdvertiser(id: string, dto: UpdateAdvertiserDto): Promise<AdvertiserDto> {
    const advertiser = await this.require(id);
    const statusChanged = dto.status !== undefined && dto.status !== advertiser.status;
    const updated: Advertiser = {
      ...advertiser,
      name: dto.name ?? advertiser.name,
      contactEmail: dto.contact_email === undefined ? advertiser.contactEmail : dto.contact_email,
      status: dto.status ?? advertiser.status,
      updatedAt: new Date(),
    };
    await this.advertisers.update(
      { id },
      {
        name: updated.name,
        contactEmail: updated.contactEmail,
        status: updated.status,
        updatedAt: updated.updatedAt,
      },
    );
    // Whether the advertiser's campaigns may be served has changed.
    if (statusChanged) await this.changes.notifyChanged();
    return toAdvertiserDto(updated);
  }

  private async require(id: string): Promise<Advertiser> {
    const advertiser = await this.findById(id);
    if (!advertiser) {
      throw ProblemException.notFound('advertiser_not_found', 'No advertiser has this id.');
    }
    return advertiser;
  }
}

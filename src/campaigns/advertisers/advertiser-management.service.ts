import { Injectable } from '@nestjs/common';
import { pageOf } from '@/common/dto/page-query.dto';
import { ProblemException } from '@/common/problem';
import { AdvertisersService } from './advertisers.service';
import {
  AdvertiserDto,
  AdvertiserListQueryDto,
  AdvertiserPageDto,
  CreateAdvertiserDto,
  toAdvertiserDto,
  UpdateAdvertiserDto,
} from '@/campaigns/dto/advertiser.dto';
import type { Advertiser } from '@/campaigns/entities/advertiser.entity';

/**
 * The operator API's view of advertisers: request DTOs in, response DTOs out, the 404 of an
 * unknown id. The writes and their consequences stay in AdvertisersService.
 */
@Injectable()
export class AdvertiserManagementService {
  constructor(private readonly advertisers: AdvertisersService) {}

  async listAdvertisers(query: AdvertiserListQueryDto): Promise<AdvertiserPageDto> {
    const page = pageOf(query);
    const { items, total } = await this.advertisers.list(query.status, page);
    return { items: items.map(toAdvertiserDto), page: page.page, per_page: page.perPage, total };
  }

  async getAdvertiser(id: string): Promise<AdvertiserDto> {
    return toAdvertiserDto(await this.require(id));
  }

  async createAdvertiser(dto: CreateAdvertiserDto): Promise<AdvertiserDto> {
    return toAdvertiserDto(await this.advertisers.create(dto.name, dto.contact_email ?? null));
  }

  async updateAdvertiser(id: string, dto: UpdateAdvertiserDto): Promise<AdvertiserDto> {
    const updated = await this.advertisers.update(await this.require(id), {
      name: dto.name,
      contactEmail: dto.contact_email,
      status: dto.status,
    });
    return toAdvertiserDto(updated);
  }

  private async require(id: string): Promise<Advertiser> {
    const advertiser = await this.advertisers.findById(id);
    if (!advertiser) {
      throw ProblemException.notFound('advertiser_not_found', 'No advertiser has this id.');
    }
    return advertiser;
  }
}

import { Injectable } from '@nestjs/common';
import { AdvertisersRepository } from './advertisers.repository';
import { ShownAdvertiserDto, toShownAdvertiserDto } from '@/campaigns/dto/shown-advertiser.dto';

/**
 * The publisher API's view of advertisers: only those whose ads its models were served, so
 * that a publisher can block one by name (`blocked_advertisers` holds ids).
 */
@Injectable()
export class ShownAdvertisersService {
  constructor(private readonly advertisers: AdvertisersRepository) {}

  async list(publisherId: string): Promise<ShownAdvertiserDto[]> {
    const shown = await this.advertisers.shownToPublisher(publisherId);
    return shown.map(toShownAdvertiserDto);
  }
}

import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, type Repository } from 'typeorm';
import { sqlDatetime } from '@/common/clock';
import { type Statement, TableRows } from '@/database/statements';
import { Click } from './entities/click.entity';

const CLICKS = new TableRows<Click>('clicks', {
  id: (r) => r.id,
  created_at: (r) => sqlDatetime(r.createdAt),
  impression_id: (r) => r.impressionId,
  campaign_id: (r) => r.campaignId,
  model_id: (r) => r.modelId,
  publisher_id: (r) => r.publisherId,
  status: (r) => r.status,
  invalid_reason: (r) => r.invalidReason,
  cost_micros: (r) => r.costMicros,
  publisher_earnings_micros: (r) => r.publisherEarningsMicros,
  user_agent: (r) => r.userAgent,
  ip_hash: (r) => r.ipHash,
});

/** A stored click's outcome. */
export type StoredClick = Pick<Click, 'id' | 'status' | 'invalidReason'>;

/** The clicks table's writes and the click recorder's own reads of it. */
@Injectable()
export class ClicksRepository {
  constructor(@InjectRepository(Click) private readonly clicks: Repository<Click>) {}

  /** One statement for a batch's clicks, for the batch's transaction to send. */
  insertStatement(rows: Click[]): Statement {
    return CLICKS.insert(rows);
  }

  /** The outcomes of those of these clicks that are stored. */
  findOutcomes(ids: string[]): Promise<StoredClick[]> {
    return this.clicks.find({
      select: { id: true, status: true, invalidReason: true },
      where: { id: In(ids) },
    });
  }
}

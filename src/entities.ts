import { AccountToken } from '@/auth/entities/account-token.entity';
import { Session } from '@/auth/entities/session.entity';
import { Advertiser } from '@/campaigns/entities/advertiser.entity';
import { CampaignAuditEntry } from '@/campaigns/entities/campaign-audit-entry.entity';
import { Campaign } from '@/campaigns/entities/campaign.entity';
import { ServabilityVersion } from '@/campaigns/entities/servability-version.entity';
import { AdvertiserApiKey } from '@/conversions/entities/advertiser-api-key.entity';
import { Conversion } from '@/conversions/entities/conversion.entity';
import { DailyConversion } from '@/earnings/entities/daily-conversion.entity';
import { DailyFillStat } from '@/earnings/entities/daily-fill-stat.entity';
import { DailyStat } from '@/earnings/entities/daily-stat.entity';
import { DailyUnbilledClick } from '@/earnings/entities/daily-unbilled-click.entity';
import { LedgerEntry } from '@/earnings/entities/ledger-entry.entity';
import { Payout } from '@/payouts/entities/payout.entity';
import { AiModel } from '@/publishers/entities/ai-model.entity';
import { ApiKey } from '@/publishers/entities/api-key.entity';
import { PublisherAuditEntry } from '@/publishers/entities/publisher-audit-entry.entity';
import { Publisher } from '@/publishers/entities/publisher.entity';
import { Click } from '@/tracking/entities/click.entity';
import { Impression } from '@/tracking/entities/impression.entity';

/**
 * Every entity of the app; the migrations in `migrations/` must create exactly these. At the
 * root, beside AppModule, because only the composition of all modules knows every table
 * (docs/architecture.md); the database layer takes the list as an argument.
 */
export const ENTITIES = [
  Publisher,
  PublisherAuditEntry,
  AiModel,
  ApiKey,
  Advertiser,
  Campaign,
  CampaignAuditEntry,
  ServabilityVersion,
  Impression,
  Click,
  LedgerEntry,
  DailyStat,
  DailyUnbilledClick,
  DailyFillStat,
  DailyConversion,
  Payout,
  Session,
  AccountToken,
  AdvertiserApiKey,
  Conversion,
];

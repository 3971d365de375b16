import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DailyConversionsRepository } from './daily-conversions.repository';
import { DailyStatsRepository } from './daily-stats.repository';
import { DailyUnbilledClicksRepository } from './daily-unbilled-clicks.repository';
import { EarningsService } from './earnings.service';
import { DailyConversion } from './entities/daily-conversion.entity';
import { DailyFillStat } from './entities/daily-fill-stat.entity';
import { DailyStat } from './entities/daily-stat.entity';
import { LedgerEntry } from './entities/ledger-entry.entity';
import { FillStatsRecorder } from './fill-stats-recorder.service';
import { FillStatsRepository } from './fill-stats.repository';
import { LedgerRepository } from './ledger.repository';

@Module({
  imports: [TypeOrmModule.forFeature([LedgerEntry, DailyStat, DailyFillStat, DailyConversion])],
  providers: [
    EarningsService,
    DailyStatsRepository,
    DailyUnbilledClicksRepository,
    DailyConversionsRepository,
    LedgerRepository,
    FillStatsRecorder,
    FillStatsRepository,
  ],
  // FillStatsRecorder for fetch-ads, which counts each request's outcome.
  exports: [EarningsService, FillStatsRecorder],
})
export class EarningsModule {}

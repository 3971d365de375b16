import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DailyStatsRepository } from './daily-stats.repository';
import { DailyUnbilledClicksRepository } from './daily-unbilled-clicks.repository';
import { EarningsService } from './earnings.service';
import { DailyStat } from './entities/daily-stat.entity';
import { LedgerEntry } from './entities/ledger-entry.entity';
import { LedgerRepository } from './ledger.repository';

@Module({
  imports: [TypeOrmModule.forFeature([LedgerEntry, DailyStat])],
  providers: [
    EarningsService,
    DailyStatsRepository,
    DailyUnbilledClicksRepository,
    LedgerRepository,
  ],
  exports: [EarningsService],
})
export class EarningsModule {}

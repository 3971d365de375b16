import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PublishersModule } from '@/publishers/publishers.module';
import { DailyFillStat } from '@/earnings/entities/daily-fill-stat.entity';
import { DailyStat } from '@/earnings/entities/daily-stat.entity';
import { FillStatsRepository } from '@/earnings/fill-stats.repository';
import { StatsController } from './stats.controller';
import { StatsRepository } from './stats.repository';
import { StatsService } from './stats.service';

/**
 * Publishers' usage statistics (`GET /api/stats`, its overview and unbilled clicks). Apart
 * from EarningsModule, the write side the tracking hot path imports, so that each holds one
 * job.
 */
@Module({
  imports: [TypeOrmModule.forFeature([DailyStat, DailyFillStat]), PublishersModule],
  controllers: [StatsController],
  providers: [StatsService, StatsRepository, FillStatsRepository],
})
export class StatsModule {}

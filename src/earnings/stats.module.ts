import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PublishersModule } from '@/publishers/publishers.module';
import { DailyStat } from './entities/daily-stat.entity';
import { StatsController } from './stats.controller';
import { StatsRepository } from './stats.repository';
import { StatsService } from './stats.service';

/**
 * Publishers' usage statistics (`GET /api/stats`). Apart from EarningsModule, the write side
 * the tracking hot path imports, so that each holds one job.
 */
@Module({
  imports: [TypeOrmModule.forFeature([DailyStat]), PublishersModule],
  controllers: [StatsController],
  providers: [StatsService, StatsRepository],
})
export class StatsModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PublishersModule } from '@/publishers/publishers.module';
import { DailyConversion } from '@/earnings/entities/daily-conversion.entity';
import { DailyStat } from '@/earnings/entities/daily-stat.entity';
import { DailyUnbilledClick } from '@/earnings/entities/daily-unbilled-click.entity';
import { ReportsController } from './reports.controller';
import { ReportsRepository } from './reports.repository';
import { ReportsService } from './reports.service';

/**
 * Operators' reports (`/api/admin/reports/…`, and the campaign report's figures). Apart from
 * EarningsModule, the write side the tracking hot path imports, so that each holds one job.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([DailyStat, DailyUnbilledClick, DailyConversion]),
    PublishersModule,
  ],
  controllers: [ReportsController],
  providers: [ReportsService, ReportsRepository],
  exports: [ReportsService],
})
export class ReportsModule {}

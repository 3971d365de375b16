import { DynamicModule, Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { ThrottlerModule } from '@nestjs/throttler';
import { AdsModule } from './ads/ads.module';
import { AuthModule } from './auth/auth.module';
import { CampaignsModule } from './campaigns/campaigns.module';
import { RedisThrottlerStorage } from './http/redis-throttler-storage';
import { WindowThrottlerStorage } from './http/window-throttler-storage';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { ConversionsModule } from './conversions/conversions.module';
import { DashboardModule } from './dashboard/dashboard.module';
import { DatabaseModule } from './database/database.module';
import { DemoModule } from './demo/demo.module';
import { ENTITIES } from './entities';
import { EarningsModule } from './earnings/earnings.module';
import { StatsModule } from './stats/stats.module';
import { HealthModule } from './health/health.module';
import { MetricsModule } from './metrics/metrics.module';
import { PayoutsModule } from './payouts/payouts.module';
import { PublishersModule } from './publishers/publishers.module';
import { TrackingModule } from './tracking/tracking.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot(ENTITIES),
        // Global: the modules below count into its registry; it imports none of them.
        MetricsModule,
        // Runs the @Interval/@Cron methods of providers (the hourly retention purge).
        ScheduleModule.forRoot(),
        // Limits per route come from config in RateLimitGuard; this is the window. With Redis
        // all instances share the counters; Nest runs the storage's init and shutdown hooks
        // (it is the instance of the throttler's storage provider).
        ThrottlerModule.forRoot({
          throttlers: [{ ttl: 60_000, limit: config.rateLimitPerMinute }],
          storage: config.redisUrl
            ? new RedisThrottlerStorage(config.redisUrl)
            : new WindowThrottlerStorage(),
        }),
        PublishersModule,
        AuthModule,
        CampaignsModule,
        EarningsModule,
        StatsModule,
        PayoutsModule,
        TrackingModule,
        AdsModule,
        ConversionsModule,
        HealthModule,
        DemoModule,
        DashboardModule,
      ],
    };
  }
}

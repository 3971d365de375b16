import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { CampaignIndexModule } from '@/campaign-index/campaign-index.module';
import { HealthController } from './health.controller';
import { ReadinessIndicators } from './readiness-indicators';
import { RequestDrain } from './request-drain.service';

@Module({
  // Terminus logs nothing: a failed probe is answered with the failed check's name, and
  // the database outage itself is logged by the requests it fails.
  imports: [TerminusModule.forRoot({ logger: false }), CampaignIndexModule],
  controllers: [HealthController],
  providers: [RequestDrain, ReadinessIndicators],
  exports: [RequestDrain],
})
export class HealthModule {}

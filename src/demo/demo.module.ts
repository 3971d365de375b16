import { Module } from '@nestjs/common';
import { AuthModule } from '@/auth/auth.module';
import { CampaignsModule } from '@/campaigns/campaigns.module';
import { PublishersModule } from '@/publishers/publishers.module';
import { DemoSeeder } from './demo-seeder.service';

@Module({
  imports: [PublishersModule, CampaignsModule, AuthModule],
  providers: [DemoSeeder],
  exports: [DemoSeeder],
})
export class DemoModule {}

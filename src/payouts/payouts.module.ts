import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PublishersModule } from '@/publishers/publishers.module';
import { Payout } from './entities/payout.entity';
import { PayoutsAdminController } from './payouts-admin.controller';
import { PayoutsRepository } from './payouts.repository';
import { PayoutsService } from './payouts.service';
import { PublisherPayoutsController } from './publisher-payouts.controller';

/**
 * Publishers' balances (the ledger's earnings minus payouts) and operators' payouts. Nothing
 * imports it but the composition root.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Payout]), PublishersModule],
  controllers: [PublisherPayoutsController, PayoutsAdminController],
  providers: [PayoutsService, PayoutsRepository],
})
export class PayoutsModule {}

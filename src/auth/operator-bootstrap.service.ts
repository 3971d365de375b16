import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from '@/config/app-config';
import { OperatorAccounts } from './operator-accounts.service';

/** Creates the first operator from ADMIN_EMAIL / ADMIN_PASSWORD when it does not exist yet. */
@Injectable()
export class OperatorBootstrap implements OnApplicationBootstrap {
  private readonly logger = new Logger(OperatorBootstrap.name);

  constructor(
    private readonly operators: OperatorAccounts,
    private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { adminEmail, adminPassword } = this.config;
    if (!adminEmail || !adminPassword) {
      if (adminEmail || adminPassword) {
        this.logger.warn('set both ADMIN_EMAIL and ADMIN_PASSWORD to create the first operator');
      }
      return;
    }
    const outcome = await this.operators.ensureOperator(adminEmail, adminPassword);
    if (outcome === 'created') this.logger.log(`created the operator account ${adminEmail}`);
    if (outcome === 'taken_by_publisher') {
      this.logger.warn(
        `ADMIN_EMAIL ${adminEmail} belongs to a publisher account; no operator was created`,
      );
    }
  }
}

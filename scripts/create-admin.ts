import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { OperatorAccounts, type OperatorOutcome } from '@/auth/operator-accounts.service';
import { PasswordHasher } from '@/auth/password-hasher.service';
import { AppConfig } from '@/config/app-config';
import { ConfigModule } from '@/config/config.module';
import { ConfigError, validateEnvironment } from '@/config/environment';
import { DatabaseModule } from '@/database/database.module';
import { ENTITIES } from '@/entities';
import { PublishersModule } from '@/publishers/publishers.module';

const USAGE =
  'usage: npm run admin:create -- <email> <password>\n' +
  '   or: ADMIN_EMAIL=… ADMIN_PASSWORD=… npm run admin:create';

const MESSAGES: Record<OperatorOutcome, (email: string) => string> = {
  created: (email) => `Created the operator account ${email}.`,
  exists: (email) => `An operator account ${email} already exists; nothing changed.`,
  taken_by_publisher: (email) =>
    `${email} belongs to a publisher account; no operator was created. Use another email.`,
};

/**
 * Creates an operator (role `admin`) on the database DATABASE_URL names, migrating it first
 * if needed. Email and password come from the arguments or from ADMIN_EMAIL/ADMIN_PASSWORD,
 * checked by the same rules as at start-up. Exit code 0 when the operator exists afterwards.
 */
export async function createAdmin(
  args: string[],
  config: AppConfig,
): Promise<{ outcome: OperatorOutcome; message: string }> {
  const email = args[0] ?? config.adminEmail;
  const password = args[1] ?? config.adminPassword;
  if (!email || !password) throw new ConfigError(USAGE);
  // The rules of ADMIN_EMAIL/ADMIN_PASSWORD, also for values given as arguments.
  validateEnvironment({ ADMIN_EMAIL: email, ADMIN_PASSWORD: password });

  @Module({
    imports: [ConfigModule.forRoot(config), DatabaseModule.forRoot(ENTITIES), PublishersModule],
    providers: [PasswordHasher, OperatorAccounts],
  })
  class CreateAdminModule {}

  // Only what creating an account needs: no HTTP server, no ad index, no background jobs.
  const context = await NestFactory.createApplicationContext(CreateAdminModule, {
    logger: ['error'],
  });
  try {
    const outcome = await context.get(OperatorAccounts).ensureOperator(email, password);
    return { outcome, message: MESSAGES[outcome](email.trim().toLowerCase()) };
  } finally {
    await context.close();
  }
}

if (require.main === module) {
  Promise.resolve()
    .then(() => createAdmin(process.argv.slice(2), AppConfig.fromEnvironment()))
    .then(({ outcome, message }) => {
      console.log(message);
      process.exitCode = outcome === 'taken_by_publisher' ? 1 : 0;
    })
    .catch((error: unknown) => {
      console.error(error instanceof ConfigError ? error.message : error);
      process.exitCode = 1;
    });
}

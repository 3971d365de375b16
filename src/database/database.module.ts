import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '@/config/app-config';
import { buildDataSourceOptions, databaseDeadlines, type EntityList } from './data-source-options';
import { isDatabaseUnavailable } from './database-errors';
import type { MysqlDriverWithDeadlines } from './mysql-deadlines';
import { DatabasePoolMetrics } from './pool-metrics';

/**
 * One DataSource for the app; pending migrations run at start-up. `entities` comes from the
 * composition root (src/entities.ts), so that this module imports no feature module.
 */
@Module({})
export class DatabaseModule {
  static forRoot(entities: EntityList): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [dataSource(entities)],
      providers: [DatabasePoolMetrics],
    };
  }
}

function dataSource(entities: EntityList): DynamicModule {
  return TypeOrmModule.forRootAsync({
    inject: [AppConfig],
    useFactory: (config: AppConfig) => ({
      ...buildDataSourceOptions(config.database, entities, databaseDeadlines(config)),
      migrationsRun: true,
      // A server that is still starting may answer soon; a file that cannot be written or
      // a wrong password will not, so start-up fails at once with what to fix.
      toRetry: (error: unknown) => isDatabaseUnavailable(error),
      retryAttempts: 5,
      retryDelay: 1000,
    }),
    dataSourceFactory: async (options) => {
      const dataSource = await new DataSource(options!).initialize();
      // Migrations have run: from now on a statement may go unanswered only so long.
      const { driver } = options as { driver?: Partial<MysqlDriverWithDeadlines> };
      driver?.armStatementDeadlines?.();
      return dataSource;
    },
  });
}

import { Injectable, Optional } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { MetricsService, type PoolUsage } from '@/metrics/metrics.service';

/**
 * mysql2's pool keeps its connections in these queues and offers no public count of them;
 * read only at a scrape, and a mysql2 release that renames them shows no pool figures rather
 * than failing the scrape.
 */
interface Mysql2PoolQueues {
  _allConnections?: { length: number };
  _freeConnections?: { length: number };
  _connectionQueue?: { length: number };
}

export function mysqlPoolUsage(pool: Mysql2PoolQueues | undefined): PoolUsage | null {
  const all = pool?._allConnections?.length;
  const free = pool?._freeConnections?.length;
  if (all === undefined || free === undefined) return null;
  return { inUse: all - free, idle: free, waiting: pool?._connectionQueue?.length ?? 0 };
}

/**
 * The database pool's figures for /metrics, from TypeORM's mysql2 pool. SQLite has no pool
 * (one connection, one writer at a time), so there the pool metrics have no samples.
 */
@Injectable()
export class DatabasePoolMetrics {
  // Optional: a script's context (`npm run admin:create`) has a database but no metrics.
  constructor(dataSource: DataSource, @Optional() metrics?: MetricsService) {
    metrics?.readFrom('databasePool', () =>
      mysqlPoolUsage((dataSource.driver as { pool?: Mysql2PoolQueues }).pool),
    );
  }
}

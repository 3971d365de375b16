import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * No-fill analytics: fetch-ads requests per UTC day, model and outcome (`filled` or why no ad
 * was served). Starts empty: requests before it were not counted.
 */
export class FillStats1764300000000 implements MigrationInterface {
  name = 'FillStats1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const ref = (name: string, isPrimary = false) => ({
      name,
      type: 'varchar',
      length: '36',
      isPrimary,
    });
    await queryRunner.createTable(
      new Table({
        name: 'daily_fill_stats',
        columns: [
          { name: 'day', type: 'varchar', length: '10', isPrimary: true },
          ref('model_id', true),
          { name: 'outcome', type: 'varchar', length: '32', isPrimary: true },
          ref('publisher_id'),
          { name: 'requests', type: 'bigint' },
        ],
        indices: [
          { name: 'idx_daily_fill_stats_publisher_day', columnNames: ['publisher_id', 'day'] },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('daily_fill_stats');
  }
}

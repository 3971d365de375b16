import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/**
 * Test mode: an API key is `live` or `test` (every existing key is live); an impression
 * served to a test key says so, so its clicks are recognised and never billed; and the
 * daily roll-ups count test impressions and clicks apart from the billable counters.
 */
export class TestMode1764200000000 implements MigrationInterface {
  name = 'TestMode1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'api_keys',
      new TableColumn({ name: 'kind', type: 'varchar', length: '8', default: "'live'" }),
    );
    await queryRunner.addColumn(
      'impressions',
      new TableColumn({ name: 'test', type: 'boolean', default: 0 }),
    );
    await queryRunner.addColumns('daily_stats', [
      new TableColumn({ name: 'test_impressions', type: 'bigint', default: 0 }),
      new TableColumn({ name: 'test_clicks', type: 'bigint', default: 0 }),
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumns('daily_stats', ['test_impressions', 'test_clicks']);
    await queryRunner.dropColumn('impressions', 'test');
    await queryRunner.dropColumn('api_keys', 'kind');
  }
}

import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/**
 * Viewed ads: an impression records when its ad was first seen on screen, and the daily
 * roll-ups count viewed impressions (test keys' apart), so reports can show a view rate.
 */
export class AdViews1764830000000 implements MigrationInterface {
  name = 'AdViews1764830000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'impressions',
      new TableColumn({ name: 'viewed_at', type: 'datetime', precision: 3, isNullable: true }),
    );
    await queryRunner.addColumns('daily_stats', [
      new TableColumn({ name: 'viewed_impressions', type: 'bigint', default: 0 }),
      new TableColumn({ name: 'test_viewed_impressions', type: 'bigint', default: 0 }),
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumns('daily_stats', ['viewed_impressions', 'test_viewed_impressions']);
    await queryRunner.dropColumn('impressions', 'viewed_at');
  }
}

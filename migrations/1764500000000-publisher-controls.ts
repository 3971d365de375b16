import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/**
 * Publisher controls: a campaign carries an IAB content category (null on every existing
 * one: not categorised), and an AI model its publisher's controls (every existing model
 * starts with none: nothing blocked, no relevance floor, no frequency cap). The blocked
 * lists are JSON, each in its own TEXT column so that the longest the API takes fits.
 */
export class PublisherControls1764500000000 implements MigrationInterface {
  name = 'PublisherControls1764500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'campaigns',
      new TableColumn({ name: 'category', type: 'varchar', length: '16', isNullable: true }),
    );
    await queryRunner.addColumns('ai_models', [
      new TableColumn({ name: 'blocked_categories', type: 'text', isNullable: true }),
      new TableColumn({ name: 'blocked_advertisers', type: 'text', isNullable: true }),
      new TableColumn({ name: 'blocked_keywords', type: 'text', isNullable: true }),
      new TableColumn({ name: 'relevance_floor_ppm', type: 'integer', default: 0 }),
      new TableColumn({ name: 'frequency_cap_ads', type: 'integer', isNullable: true }),
      new TableColumn({ name: 'frequency_cap_minutes', type: 'integer', isNullable: true }),
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumns('ai_models', [
      'blocked_categories',
      'blocked_advertisers',
      'blocked_keywords',
      'relevance_floor_ppm',
      'frequency_cap_ads',
      'frequency_cap_minutes',
    ]);
    await queryRunner.dropColumn('campaigns', 'category');
  }
}

import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/**
 * "Why this ad": each impression keeps the facts of its explanation (relevance, the
 * keywords met and where, the campaign's targets), so that looking up its receipt later
 * shows what was true when the ad was served. Null on impressions served before.
 */
export class AdExplanations1764400000000 implements MigrationInterface {
  name = 'AdExplanations1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('impressions', [
      new TableColumn({ name: 'relevance_ppm', type: 'integer', isNullable: true }),
      new TableColumn({ name: 'matched', type: 'varchar', length: '1000', isNullable: true }),
      new TableColumn({
        name: 'campaign_targets',
        type: 'varchar',
        length: '1000',
        isNullable: true,
      }),
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumns('impressions', ['relevance_ppm', 'matched', 'campaign_targets']);
  }
}

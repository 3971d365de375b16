import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/**
 * Keyword translations: a campaign may give its keywords phrases in other languages, as
 * JSON in its own TEXT column. NULL means none, so every existing campaign reads as having
 * no translations without a rewrite of the table.
 */
export class KeywordTranslations1764600000000 implements MigrationInterface {
  name = 'KeywordTranslations1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'campaigns',
      new TableColumn({ name: 'keyword_translations', type: 'text', isNullable: true }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('campaigns', 'keyword_translations');
  }
}

import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/** Remembers who deactivated a model, so a publisher cannot undo an operator's decision. */
export class ModelDeactivatedBy1763765300000 implements MigrationInterface {
  name = 'ModelDeactivatedBy1763765300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'ai_models',
      new TableColumn({ name: 'deactivated_by', type: 'varchar', length: '16', isNullable: true }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('ai_models', 'deactivated_by');
  }
}

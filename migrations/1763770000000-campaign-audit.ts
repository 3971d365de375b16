import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/** Who changed which campaign field when (issue 4). */
export class CampaignAudit1763770000000 implements MigrationInterface {
  name = 'CampaignAudit1763770000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'campaign_audit',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'campaign_id', type: 'varchar', length: '36' },
          { name: 'actor_id', type: 'varchar', length: '36', isNullable: true },
          { name: 'action', type: 'varchar', length: '16' },
          { name: 'field', type: 'varchar', length: '32', isNullable: true },
          { name: 'old_value', type: 'text', isNullable: true },
          { name: 'new_value', type: 'text', isNullable: true },
          { name: 'created_at', type: 'datetime', precision: 3 },
        ],
        indices: [
          {
            name: 'idx_campaign_audit_campaign_created',
            columnNames: ['campaign_id', 'created_at'],
          },
        ],
        foreignKeys: [
          {
            name: 'fk_campaign_audit_campaign',
            columnNames: ['campaign_id'],
            referencedTableName: 'campaigns',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
            onUpdate: 'NO ACTION',
          },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('campaign_audit');
  }
}

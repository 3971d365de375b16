import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/** Who suspended or reactivated which publisher when, and why (issue 27). */
export class PublisherAudit1764850000000 implements MigrationInterface {
  name = 'PublisherAudit1764850000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'publisher_audit',
        columns: [
          { name: 'id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'publisher_id', type: 'varchar', length: '36' },
          { name: 'actor_id', type: 'varchar', length: '36', isNullable: true },
          { name: 'old_status', type: 'varchar', length: '16' },
          { name: 'new_status', type: 'varchar', length: '16' },
          { name: 'reason', type: 'varchar', length: '500', isNullable: true },
          { name: 'created_at', type: 'datetime', precision: 3 },
        ],
        indices: [
          {
            name: 'idx_publisher_audit_publisher_created',
            columnNames: ['publisher_id', 'created_at'],
          },
        ],
        foreignKeys: [
          {
            name: 'fk_publisher_audit_publisher',
            columnNames: ['publisher_id'],
            referencedTableName: 'publishers',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
            onUpdate: 'NO ACTION',
          },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('publisher_audit');
  }
}

import { cpus, totalmem } from 'node:os';
import { createConnection } from 'mysql2/promise';
import type { Options } from '../common/options';
import { MARIADB_SERVER } from '../seed/database';
import { fmt } from './format';

/** The report's lines on the machine, Node.js and the database the run measured. */
export async function describeMachine(options: Options): Promise<string[]> {
  const cpu = cpus();
  const lines = [
    `Machine: ${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown CPU'}), ${fmt(totalmem() / 2 ** 30, 1)} GiB memory, ${process.platform}`,
    `Node.js ${process.version}`,
  ];
  if (!options.sqlite) {
    const connection = await createConnection(MARIADB_SERVER);
    const [rows] = await connection.query('SELECT VERSION() AS v');
    await connection.end();
    lines.push(
      `Database: MariaDB ${(rows as { v: string }[])[0].v} at 127.0.0.1:3306 (same machine)`,
    );
  } else {
    lines.push('Database: SQLite (better-sqlite3), a temporary file');
  }
  return lines;
}

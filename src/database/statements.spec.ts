import { TableRows, updateByIds } from './statements';

interface Row {
  id: string;
  count: number;
  note: string | null;
}

const ROWS = new TableRows<Row>('things', {
  id: (r) => r.id,
  count: (r) => r.count,
  note: (r) => r.note,
});

const rows: Row[] = [
  { id: 'a', count: 1, note: null },
  { id: 'b', count: 2, note: 'two' },
];

describe('TableRows', () => {
  it('inserts every row with its values in the order of the column list', () => {
    expect(ROWS.columns).toEqual(['id', 'count', 'note']);
    expect(ROWS.insert(rows)).toEqual({
      sql: 'INSERT INTO things (id, count, note) VALUES (?, ?, ?), (?, ?, ?)',
      parameters: ['a', 1, null, 'b', 2, 'two'],
    });
  });

  it('adds the counters to a stored row, in each dialect', () => {
    const conflict = { key: ['id'], counters: ['count'] };
    const insert = 'INSERT INTO things (id, count, note) VALUES (?, ?, ?), (?, ?, ?)';
    expect(ROWS.insertAdding(rows, 'mysql', conflict).sql).toBe(
      `${insert} ON DUPLICATE KEY UPDATE count = count + VALUES(count)`,
    );
    expect(ROWS.insertAdding(rows, 'sqlite', conflict).sql).toBe(
      `${insert} ON CONFLICT (id) DO UPDATE SET count = count + excluded.count`,
    );
  });

  it('refuses to build an insert of no rows (it would not be valid SQL)', () => {
    expect(() => ROWS.insert([])).toThrow('no rows to insert into things');
  });
});

describe('updateByIds', () => {
  it('gives each row its own values and every row the same ones, in placeholder order', () => {
    const counts = new Map([
      ['a', 10],
      ['b', 20],
    ]);
    expect(
      updateByIds('things', ['a', 'b'], { count: (id) => counts.get(id) }, { note: 'x' }),
    ).toEqual({
      sql: 'UPDATE things SET count = CASE id WHEN ? THEN ? WHEN ? THEN ? END, note = ? WHERE id IN (?, ?)',
      parameters: ['a', 10, 'b', 20, 'x', 'a', 'b'],
    });
  });
});

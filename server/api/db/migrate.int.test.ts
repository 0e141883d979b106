import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadMigrations, runMigrations } from './migrate';
import { createPool } from './pool';
import { createTestSchema, type TestSchema } from '../testing/test-app';
import { TEST_DATABASE_URL } from '../testing/services';

jest.setTimeout(30_000);

describe('runMigrations', () => {
  const schemas: TestSchema[] = [];
  const dirs: string[] = [];

  async function freshSchema(): Promise<TestSchema> {
    const schema = await createTestSchema('mig');
    schemas.push(schema);
    return schema;
  }

  async function migrationDir(files: Record<string, string>): Promise<string> {
    const dir = await mkdtemp(path.join(tmpdir(), 'yumecast-migrations-'));
    dirs.push(dir);
    for (const [name, sql] of Object.entries(files)) await writeFile(path.join(dir, name), sql);
    return dir;
  }

  afterAll(async () => {
    await Promise.all(schemas.map((schema) => schema.drop()));
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('applies every migration once, and a second run applies nothing', async () => {
    const schema = await freshSchema();
    const files = (await loadMigrations()).map((migration) => migration.file);
    expect(files[0]).toBe('001_users.sql');

    const first = await runMigrations(schema.pool);
    expect(first).toEqual({ applied: files, alreadyApplied: 0 });
    const second = await runMigrations(schema.pool);
    expect(second).toEqual({ applied: [], alreadyApplied: files.length });

    const { rows } = await schema.pool.query('SELECT version, name FROM schema_migrations ORDER BY version');
    expect(rows.map((row) => row.version)).toEqual(files.map((file) => Number(file.slice(0, 3))));
    // 001 made a real users table in this schema (not in public).
    const table = await schema.pool.query(
      `SELECT column_name, data_type FROM information_schema.columns
       WHERE table_schema = $1 AND table_name = 'users' ORDER BY ordinal_position`,
      [schema.name],
    );
    expect(table.rows).toEqual([
      { column_name: 'uid', data_type: 'text' },
      { column_name: 'created_at', data_type: 'timestamp with time zone' },
      { column_name: 'last_seen_at', data_type: 'timestamp with time zone' },
    ]);
  });

  it('is safe when two processes migrate at the same time', async () => {
    const schema = await freshSchema();
    // Two pools stand for two API processes starting together.
    const pools = [0, 1].map(() => createPool({ databaseUrl: TEST_DATABASE_URL, schema: schema.name, max: 1 }));
    try {
      const results = await Promise.all(pools.map((pool) => runMigrations(pool)));
      const count = (await loadMigrations()).length;
      expect(results.map((result) => result.applied.length).sort()).toEqual([0, count]);
      const { rows } = await schema.pool.query('SELECT count(*)::int AS n FROM schema_migrations');
      expect(rows[0].n).toBe(count);
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
  });

  it('rolls a failing migration back entirely and records nothing for it', async () => {
    const schema = await freshSchema();
    const dir = await migrationDir({
      '001_first.sql': 'CREATE TABLE first_table (id int);',
      '002_broken.sql': 'CREATE TABLE half_done (id int);\nSELECT no_such_column FROM first_table;',
    });
    await expect(runMigrations(schema.pool, { dir })).rejects.toThrow(/002_broken\.sql failed/);
    const { rows } = await schema.pool.query('SELECT version FROM schema_migrations');
    expect(rows).toEqual([{ version: 1 }]);
    const halfDone = await schema.pool.query(`SELECT to_regclass($1) AS t`, [`${schema.name}.half_done`]);
    expect(halfDone.rows[0].t).toBeNull();
  });

  it('refuses to continue when an applied migration file was edited', async () => {
    const schema = await freshSchema();
    const dir = await migrationDir({ '001_first.sql': 'CREATE TABLE first_table (id int);' });
    await runMigrations(schema.pool, { dir });
    await writeFile(path.join(dir, '001_first.sql'), 'CREATE TABLE first_table (id bigint);');
    await expect(runMigrations(schema.pool, { dir })).rejects.toThrow(/changed after it was applied/);
  });

  it('rejects badly named and duplicate migration files', async () => {
    await expect(loadMigrations(await migrationDir({ '1_bad.sql': 'SELECT 1;' }))).rejects.toThrow(/001_name\.sql/);
    await expect(
      loadMigrations(await migrationDir({ '001_a.sql': 'SELECT 1;', '001_b.sql': 'SELECT 1;' })),
    ).rejects.toThrow(/share version 001/);
  });
});

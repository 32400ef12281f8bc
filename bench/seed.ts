// Prepares the benchmark's database: the service's migrations and demo data, then BENCH_ROWS sightings of varied text.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config/config.ts';
import { createLogger } from '../src/observability/logger.ts';
import { ReadRouting } from '../src/db/read-routing.ts';
import { openServiceDatabase } from '../src/lifecycle/service-database.ts';
import { createScratchDatabase } from '../test/support/scratch-database.ts';
import { qbeSql } from './floor-sql.ts';

export interface BenchDatabase {
  /** Settings for the service and for the floor: both share the PostgreSQL database; on PGlite each gets a copy. */
  serviceEnv: Record<string, string>;
  floorEnv: Record<string, string>;
  /** The design floor's (bench/design-floor.ts): the shared database, or a copy of its own on PGlite. */
  designFloorEnv: Record<string, string>;
  /** EXPLAIN ANALYZE of the query-by-example SQL, per pattern. */
  plans: Record<string, string>;
  drop(): Promise<void>;
}

// Memos of a few words, a hex tail that makes most trigrams distinct, a rare word (1 row in 100 000) and a common
// one (1 in 30). Rows alternate between the two demo vessels.
const seedSql = (rows: number) =>
  `insert into sighting (sighting_memo, vessel_id, sighting_timezone, sighting_date, creator)
  select (array['bright','faint','fast','slow','silent','blinking','distant'])[1 + g % 7] || ' '
      || (array['cruiser','shuttle','freighter','probe','warbird','scout'])[1 + (g * 7) % 6] || ' near '
      || substr(md5(g::text), 1, 10)
      || case when g % 100000 = 0 then ' needle' else '' end || case when g % 30 = 0 then ' comet' else '' end,
    case when g % 2 = 0 then -1 else -2 end,
    (array['Europe/Berlin','America/New_York','Asia/Tokyo',null])[1 + g % 4],
    timestamp '2026-01-01' + g * interval '1 minute', 'bench'
  from generate_series(1, ${rows}) g`;

export async function prepareDatabase(rows: number, patterns: string[]): Promise<BenchDatabase> {
  const scratch = process.env.DATABASE_URL ? await createScratchDatabase(process.env.DATABASE_URL) : undefined;
  const dir = scratch ? undefined : mkdtempSync(join(tmpdir(), 'sighting-bench-'));
  const config = loadConfig({ DATABASE_URL: scratch?.url, DATA_DIR: dir && join(dir, 'service'),
    DEMO_DATA: 'true', LOG_LEVEL: 'warn',
    // Seeding a million rows and building their trigram index takes longer than a request's statement may.
    DB_STATEMENT_TIMEOUT_MS: '600000' });
  const orm = await openServiceDatabase(config, { logger: createLogger(config), readRouting: new ReadRouting(0, 0) });
  const connection = orm.em.fork().getConnection();
  const started = performance.now();
  await connection.execute(seedSql(rows));
  await connection.execute('vacuum analyze sighting');
  console.log(`seeded ${rows} sightings in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const plans: Record<string, string> = {};
  for (const pattern of patterns) {
    // The patterns are plain words, so they can be spelled inline (the ORM's placeholders are `?`, not `$1`).
    const plan = await connection.execute(`explain analyze ${qbeSql.replace('$1', `'%${pattern}%'`)}`);
    plans[pattern] = plan.map((row: Record<string, string>) => Object.values(row)[0]).join('\n');
  }
  await orm.close(true);
  for (const copy of dir ? ['floor', 'design-floor'] : []) {
    cpSync(join(dir!, 'service'), join(dir!, copy), { recursive: true });
  }
  return {
    serviceEnv: scratch ? { DATABASE_URL: scratch.url } : { DATA_DIR: join(dir!, 'service') },
    floorEnv: scratch ? { DATABASE_URL: scratch.url } : { DATA_DIR: join(dir!, 'floor') },
    designFloorEnv: scratch ? { DATABASE_URL: scratch.url } : { DATA_DIR: join(dir!, 'design-floor') },
    plans,
    async drop() {
      await scratch?.drop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

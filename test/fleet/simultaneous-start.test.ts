// Instances started at the same instant on an empty database: each migrates or waits for the one migrating, none
// crashes.
import { expect } from 'chai';
import pg from 'pg';
import { backend } from '../support/service.ts';
import { createScratchDatabase } from '../support/scratch-database.ts';
import { spawnService, listening } from '../support/service-process.ts';

const instances = 4;
const rounds = 10;

describe('instances starting together @pgbouncer', function () {
  before(function () {
    // Embedded PGlite belongs to one process: there is nothing for a second instance to share.
    if (backend !== 'postgresql') this.skip();
  });

  it(`when ${instances} instances start at the same instant on an empty database, ${rounds} times, ` +
    `then every one serves and the schema and demo data are there once`, async function () {
    this.timeout(rounds * 60_000);
    for (let round = 1; round <= rounds; round += 1) {
      const scratch = await createScratchDatabase(process.env.DATABASE_URL!);
      const services =
        Array.from({ length: instances }, () => spawnService({ ...scratch.env, DEMO_DATA: 'true', LOG_LEVEL: 'info' }));
      try {
        const started = await Promise.allSettled(services.map(async (service) => {
          const { url } = await listening(service);
          return (await fetch(`${url}/health/ready`)).status;
        }));
        expect(started.map((outcome) => outcome.status === 'fulfilled' ? outcome.value : String(outcome.reason)),
          `round ${round}`)
          .to.deep.equal(Array(instances).fill(200));
        const client = new pg.Client({ connectionString: scratch.url });
        await client.connect();
        try {
          const { rows } = await client.query(`select
            (select count(*)::int from mikro_orm_migrations) as migrations,
            (select count(distinct name)::int from mikro_orm_migrations) as distinct_migrations,
            (select count(*)::int from pg_extension where extname = 'pg_trgm') as trigram_extension,
            (select count(*)::int from timezone where timezone_id < 0) as time_zones,
            (select count(*)::int from vessel where vessel_id in (-1, -2)) as demo_vessels,
            (select count(*)::int from sighting where sighting_id = -1) as demo_sightings`);
          const schema = rows[0] as Record<string, number>;
          expect(schema.migrations, `round ${round}: each migration recorded once`)
            .to.equal(schema.distinct_migrations);
          expect({ ...schema, migrations: undefined, distinct_migrations: undefined }, `round ${round}`)
            .to.deep.equal({ migrations: undefined, distinct_migrations: undefined, trigram_extension: 1,
              time_zones: 419, demo_vessels: 2, demo_sightings: 1 });
        } finally {
          await client.end();
        }
      } finally {
        for (const service of services) service.child.kill('SIGINT');
        await Promise.all(services.map((service) => service.exited));
        await scratch.drop();
      }
    }
  });
});

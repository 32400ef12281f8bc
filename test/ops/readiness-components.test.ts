// Readiness names each dependency it checked: 503 only for the database and its migrations, DEGRADED for the others.
import { expect } from 'chai';
import { backend, startService, type TestService } from '../support/service.ts';
import { freePort } from '../support/free-port.ts';
import { eventually } from '../support/condition.ts';
import { samples } from '../support/scrape.ts';
import { expectedMigration } from '../../src/db/migration-state.ts';

async function ready(service: TestService): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${service.url}/health/ready`);
  return { status: response.status, body: await response.json() };
}

/** Readiness once the change feed's LISTEN session has connected (it connects beside the start, not before it). */
async function readyListening(service: TestService): Promise<{ status: number; body: unknown }> {
  return eventually(async () => {
    const answer = await ready(service);
    return (answer.body as { components: { changeFeed: string } }).components.changeFeed === 'UP' ? answer : undefined;
  });
}

describe('readiness components @pgbouncer', function () {
  let service: TestService | undefined;

  afterEach(async () => {
    await service?.stop();
    service = undefined;
  });

  it('when every dependency answers, ' +
    'then 200 UP with each component, and the metrics say the database is up at the expected migration', async () => {
    service = await startService();
    expect(await readyListening(service)).to.deep.equal({
      status: 200, body: { status: 'UP',
        components: { database: 'UP', migrations: 'UP', identityProvider: 'UP', changeFeed: 'UP' } },
    });
    expect((await samples(service.url, 'db_up')).get('')).to.equal(1);
    const applied = await samples(service.url, 'db_migrations_applied');
    expect([...applied.keys()]).to.deep.equal([`{expected="${expectedMigration}",current="true"}`]);
    expect(applied.values().next().value).to.be.at.least(5);
    const listener = await samples(service.url, 'change_feed_listener_up');
    // PGlite wakes its feed in-process: there is no listener to report.
    expect(Object.fromEntries(listener)).to.deep.equal(backend === 'postgresql' ? { '': 1 } : {});
  });

  it('when the identity provider cannot be reached, ' +
    'then readiness stays 200 and says DEGRADED with identityProvider DOWN', async () => {
    service = await startService({ KEYCLOAK_URL: `http://127.0.0.1:${await freePort()}` });
    expect(await readyListening(service)).to.deep.equal({
      status: 200, body: { status: 'DEGRADED',
        components: { database: 'UP', migrations: 'UP', identityProvider: 'DOWN', changeFeed: 'UP' } },
    });
  });

  it('when the database lacks this build\'s newest migration, ' +
    'then readiness is 503 DOWN with migrations DOWN', async () => {
    service = await startService();
    await service.web.orm.em.getConnection()
      .execute('delete from mikro_orm_migrations where name = ?', [expectedMigration]);
    const { status, body } = await ready(service);
    expect({ status, body }).to.deep.include({ status: 503 });
    expect(body).to.deep.include({ status: 'DOWN' }).and.to.have.nested.property('components.migrations', 'DOWN');
    expect((body as { components: Record<string, string> }).components.database).to.equal('UP');
  });
});

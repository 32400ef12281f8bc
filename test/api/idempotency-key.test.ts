// Idempotency-Key on creates: a retry gets the first answer and stores nothing new; a reused key is refused.
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { backend, sharedService, startService, type TestService } from '../support/service.ts';
import { rawRequest } from '../support/api-client.ts';
import { buildSighting, buildVessel } from '../support/fixtures.ts';
import type { User } from '../support/tokens.ts';
import { eventually } from '../support/condition.ts';

describe('Idempotency-Key', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  async function create(on: TestService, body: unknown, key?: string, user: User = 'alice', resource = 'sighting') {
    const response = await rawRequest(on, 'POST', `/${resource}`, {
      user, body: JSON.stringify(body),
      headers: { 'Content-Type': 'application/json', ...(key !== undefined && { 'Idempotency-Key': key }) },
    });
    const text = await response.text();
    return { status: response.status, location: response.headers.get('location'), etag: response.headers.get('etag'),
      body: text ? JSON.parse(text) as unknown : undefined };
  }

  async function stored(on: TestService, memo: string): Promise<number> {
    const response = await rawRequest(on, 'GET', `/sighting?sightingMemo=${encodeURIComponent(memo)}`);
    return (await response.json() as unknown[]).length;
  }

  it('when a create is sent three times with one key and body, ' +
    'then every answer is the first one and one record is stored', async () => {
    const sighting = buildSighting();
    const key = `"${randomUUID()}"`;
    const first = await create(service, sighting, key);
    expect(first).to.deep.include({ status: 201, etag: '"0"' });
    expect(await create(service, sighting, key)).to.deep.equal(first);
    expect(await create(service, sighting, key)).to.deep.equal(first);
    expect(await stored(service, sighting.sightingMemo)).to.equal(1);
  });

  it('when the same key comes with another body, then 422 and nothing is stored', async () => {
    const key = randomUUID();
    const sighting = buildSighting();
    expect((await create(service, sighting, key)).status).to.equal(201);
    const other = buildSighting();
    expect(await create(service, other, key)).to.deep.equal({
      status: 422, location: null, etag: null,
      body: { general: 'This Idempotency-Key was already used with another request.' },
    });
    expect(await stored(service, other.sightingMemo)).to.equal(0);
  });

  it('when the same key is used on another collection, then it is another request: 422', async () => {
    const key = randomUUID();
    expect((await create(service, buildVessel(), key, 'admin', 'vessel')).status).to.equal(201);
    expect((await create(service, buildSighting(), key, 'admin')).status).to.equal(422);
  });

  it('when another user sends the same key, then it is that user\'s own key: a second record', async () => {
    const key = randomUUID();
    const sighting = buildSighting();
    const alices = await create(service, sighting, key, 'alice');
    const bobs = await create(service, sighting, key, 'bob');
    expect([alices.status, bobs.status]).to.deep.equal([201, 201]);
    expect(bobs.location).to.not.equal(alices.location);
    expect(await stored(service, sighting.sightingMemo)).to.equal(2);
  });

  it('when 6 retries with one key race each other, ' +
    'then one record is stored and each answer is that 201 or a 409 to retry', async () => {
    const sighting = buildSighting();
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 6 }, () => create(service, sighting, key)));
    const created = answers.filter((a) => a.status === 201);
    expect(created.length).to.be.above(0);
    expect(new Set(created.map((a) => a.location)).size).to.equal(1);
    for (const answer of answers.filter((a) => a.status !== 201)) {
      expect(answer).to.deep.equal({ status: 409, location: null, etag: null,
        body: { general: 'A request with this Idempotency-Key is still being processed; retry later.' } });
    }
    expect(await stored(service, sighting.sightingMemo)).to.equal(1);
  });

  it('when no key is sent, then two creates store two records, as before', async () => {
    const sighting = buildSighting();
    await create(service, sighting);
    await create(service, sighting);
    expect(await stored(service, sighting.sightingMemo)).to.equal(2);
  });

  it('when the key is empty or longer than 255 characters, then 400 on the header', async () => {
    for (const key of ['x'.repeat(256), 'with space']) {
      const { status, body } = await create(service, buildSighting(), key);
      expect({ status, fields: Object.keys(body as object) })
        .to.deep.equal({ status: 400, fields: ['idempotency-key'] });
    }
  });

  describe('window', () => {
    let short: TestService;
    before(async () => { short = await startService({ IDEMPOTENCY_WINDOW_SECONDS: '1' }); });
    after(async () => { await short?.stop(); });

    it('when a key is used again after the window, then the create runs again', async () => {
      const sighting = buildSighting();
      const key = randomUUID();
      const first = await create(short, sighting, key);
      // Until the window has passed for the key as the service counts it: from its record's time, on this clock.
      const [{ created_at: createdAt }] = await short.web.orm.em.fork().getConnection()
        .execute<{ created_at: Date }[]>('select max(created_at) as created_at from idempotency_key');
      await eventually(() => Date.now() - new Date(createdAt).getTime() > 1000, { what: 'the key\'s window passed' });
      const again = await create(short, sighting, key);
      expect([first.status, again.status]).to.deep.equal([201, 201]);
      expect(again.location).to.not.equal(first.location);
    });
  });

  describe('across instances', function () {
    let other: TestService;
    before(async function () {
      // Two instances share one database only on PostgreSQL; PGlite lives inside one process.
      if (backend !== 'postgresql') return this.skip();
      other = await startService({ DATABASE_URL: service.web.config.DATABASE_URL });
    });
    // Started on the shared service's database, so stop() drops nothing.
    after(async () => { await other?.stop(); });

    it('when a create is retried on another instance with its key, ' +
      'then that instance answers the first answer', async () => {
      const sighting = buildSighting();
      const key = randomUUID();
      const first = await create(service, sighting, key);
      expect(await create(other, sighting, key)).to.deep.equal(first);
      expect(await stored(other, sighting.sightingMemo)).to.equal(1);
    });
  });
});

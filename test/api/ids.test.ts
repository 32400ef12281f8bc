// Ids: negative ids work; texts that are no id, greedy ids and ids beyond ±(2^53−1) name no record; no id is rounded.
import { expect } from 'chai';
import { sharedService, type TestService } from '../support/service.ts';
import { apiClient, rawRequest } from '../support/api-client.ts';
import { buildSighting, unique } from '../support/fixtures.ts';

const notFound = { general: 'The record does not exist.' };

describe('ids', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
    const response = await rawRequest(service, method, path, {
      user: 'admin', ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body),
        headers: { 'Content-Type': 'application/json' } }),
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
  }

  it('when a record with a negative id is read, then it is found like any other', async () => {
    const api = await apiClient(service);
    const { data: zones } = await api.GET('/timezone', { params: { query: { timezoneName: 'Europe/Berlin' } } });
    const timezoneId = zones![0]!.timezoneId;
    expect(timezoneId).to.be.below(0);
    expect(await call('GET', `/timezone/${timezoneId}`))
      .to.deep.equal({ status: 200, body: { version: 0, timezoneId, timezoneName: 'Europe/Berlin' } });
    const vessel = await api.GET('/vessel/{id}', { params: { path: { id: -2 } } });
    expect(vessel.response.status).to.equal(200);
    expect(vessel.data?.vesselId).to.equal(-2);
  });

  for (const collection of ['timezone', 'vessel', 'sighting']) {
    for (const id of ['abc', '1.5', '0x10', '1/2', '-1/2', '9007199254740992', '9007199254740993', '-9007199254740993',
      '99999999999999999999']) {
      it(`when GET /${collection}/${id} is asked for, then it is a 404 entityNotFound`, async () => {
        expect(await call('GET', `/${collection}/${id}`)).to.deep.equal({ status: 404, body: notFound });
      });
    }
  }

  it('when a sighting is updated or deleted under an id that is no id, ' +
    'then it is a 404 and nothing changes', async () => {
    for (const id of ['abc', '-1/2', '9007199254740993']) {
      expect(await call('PUT', `/sighting/${id}`, { version: 0, sightingMemo: 'changed', vessel: { vesselId: -1 } }))
        .to.deep.equal({ status: 404, body: notFound });
      expect(await call('DELETE', `/sighting/${id}`)).to.deep.equal({ status: 404, body: notFound });
    }
  });

  it('when the largest safe id is asked for and does not exist, ' +
    'then it is a 404 (the id itself is valid)', async () => {
    expect(await call('GET', '/sighting/9007199254740991')).to.deep.equal({ status: 404, body: notFound });
    expect(await call('GET', '/sighting/-9007199254740991')).to.deep.equal({ status: 404, body: notFound });
  });

  describe('in a body', () => {
    const range = { message: 'An id must lie between -9007199254740991 and 9007199254740991.', key: 'error.id.range' };
    const notWhole = { message: 'An id must be a whole number.', key: 'error.id.invalid' };

    async function expectNotStored(memo: string): Promise<void> {
      const { data } = await (await apiClient(service)).GET('/sighting', { params: { query: { sightingMemo: memo } } });
      expect(data).to.deep.equal([]);
    }

    it('when vessel.vesselId is 2^53+1 (sent as JSON text), ' +
      'then it is a 400 on vessel.vesselId, not a link to 2^53', async () => {
      const memo = unique('big id');
      expect(await call('POST', '/sighting', `{"sightingMemo":"${memo}","vessel":{"vesselId":9007199254740993}}`))
        .to.deep.equal({ status: 400, body: { 'vessel.vesselId': range } });
      await expectNotStored(memo);
    });

    it('when vessel.vesselId is −(2^53+1), then it is a 400 on vessel.vesselId', async () => {
      const memo = unique('small id');
      expect(await call('POST', '/sighting', `{"sightingMemo":"${memo}","vessel":{"vesselId":-9007199254740993}}`))
        .to.deep.equal({ status: 400, body: { 'vessel.vesselId': range } });
      await expectNotStored(memo);
    });

    it('when vessel.vesselId is a number that JSON would round to an existing id, ' +
      'then it is a 400, never that vessel', async () => {
      for (const id of ['-1.0000000000000001', '-0.99999999999999999', '9007199254740990.9']) {
        const memo = unique('rounded id');
        expect(await call('POST', '/sighting', `{"sightingMemo":"${memo}","vessel":{"vesselId":${id}}}`), id)
          .to.deep.equal({ status: 400, body: { 'vessel.vesselId': notWhole } });
        await expectNotStored(memo);
      }
    });

    it('when vessel.vesselId is written exactly as −1.0 or −1e0, then it is the id −1', async () => {
      const memo = unique('exact id');
      const created = await call('POST', '/sighting', `{"sightingMemo":"${memo}","vessel":{"vesselId":-1.0}}`);
      expect(created.status).to.equal(201);
      const { data } = await (await apiClient(service)).GET('/sighting', { params: { query: { sightingMemo: memo } } });
      expect(data?.map((s) => s.vessel.vesselId)).to.deep.equal([-1]);
      expect((await call('POST', '/sighting', `{"sightingMemo":"${memo}","vessel":{"vesselId":-1e0}}`)).status)
        .to.equal(201);
    });

    it('when an update carries sightingId 2^53+1, then it is a 400 on sightingId, not an id mismatch', async () => {
      const api = await apiClient(service);
      const body = buildSighting();
      const id = Number(/\d+$/.exec((await api.POST('/sighting', { body })).response.headers.get('location')!)![0]);
      expect(await call('PUT', `/sighting/${id}`,
        `{"version":0,"sightingId":9007199254740993,"sightingMemo":"changed","vessel":{"vesselId":-1}}`))
        .to.deep.equal({ status: 400, body: { sightingId: range } });
      const { data } = await api.GET('/sighting/{id}', { params: { path: { id } } });
      expect(data?.sightingMemo).to.equal(body.sightingMemo);
    });
  });

  it('when a list is filtered by an id beyond 2^53, then it is a 400 on that parameter', async () => {
    expect(await call('GET', '/sighting?sightingId=9007199254740993'))
      .to.deep.equal({ status: 400, body: { sightingId: {
      message: 'An id must lie between -9007199254740991 and 9007199254740991.', key: 'error.id.range',
    } } });
  });
});

// Dates at the calendar's edges: year 0000 is no date anywhere (a 400, never a database error); 0001 and 9999 are.
import { expect } from 'chai';
import { sharedService, type TestService } from '../support/service.ts';
import { rawRequest } from '../support/api-client.ts';
import { buildSighting } from '../support/fixtures.ts';

const json = { 'Content-Type': 'application/json' };
const dateInvalid = { sightingDate: { message: 'The date must be a local date-time such as 2026-11-22T21:30:00.000, ' +
  'without offset.', key: 'sighting.date.invalid' } };

describe('calendar edges', () => {
  let service: TestService;
  before(async () => { service = await sharedService(); });

  async function answer(response: Response) {
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) as unknown : undefined };
  }

  for (const date of ['0000-01-01T00:00', '0000-12-31T23:59:59.999']) {
    it(`when a sighting is created on ${date}, then it is a 400 on sightingDate`, async () => {
      const body = JSON.stringify(buildSighting({ sightingDate: date }));
      expect(await answer(await rawRequest(service, 'POST', '/sighting', { headers: json, body })))
        .to.deep.equal({ status: 400, body: dateInvalid });
    });

    it(`when the list is filtered by ${date}, then it is a 400 on sightingDate`, async () => {
      expect(await answer(await rawRequest(service, 'GET', `/sighting?sightingDate=${date}`)))
        .to.deep.equal({ status: 400, body: dateInvalid });
    });

    it(`when a query by example names ${date}, then it is a 400 on sightingDate`, async () => {
      const body = JSON.stringify({ sightingDate: date });
      expect(await answer(await rawRequest(service, 'POST', '/sighting/qbe', { headers: json, body })))
        .to.deep.equal({ status: 400, body: dateInvalid });
    });
  }

  for (const [date, stored] of [['0001-01-01T00:00', '0001-01-01T00:00:00.000'],
    ['9999-12-31T23:59:59.999', '9999-12-31T23:59:59.999']]) {
    it(`when a sighting is created on ${date}, then it is stored and found by that date`, async () => {
      const sighting = buildSighting({ sightingDate: date });
      const created = await rawRequest(service, 'POST', '/sighting', { headers: json, body: JSON.stringify(sighting) });
      expect(created.status).to.equal(201);
      const found = await rawRequest(service, 'POST', '/sighting/qbe',
        { headers: json, body: JSON.stringify({ sightingMemo: sighting.sightingMemo, sightingDate: date }) });
      expect((await answer(found)).body).to.deep.equal([{
        version: 0, sightingId: Number(created.headers.get('location')!.split('/').at(-1)),
        sightingMemo: sighting.sightingMemo,
        vessel: { version: 0, vesselId: -1, vesselName: 'Klingon Warbird' }, sightingTimezone: null,
        sightingDate: stored,
      }]);
    });
  }
});

// An unexpected failure answers the contract's generic 500, localized, without leaking what went wrong.
import { expect } from 'chai';
import express from 'express';
import type { AddressInfo } from 'node:net';
import { errorHandler } from '../../src/http/error-handler.ts';
import { negotiate } from '../../src/http/negotiation.ts';
import { loadConfig } from '../../src/config/config.ts';
import { createLogger } from '../../src/observability/logger.ts';
import { requestLog } from '../../src/observability/request-log.ts';
import { captureLog, type LogCapture } from '../support/log-capture.ts';

describe('unexpected errors', () => {
  // No request a client can send reaches a 500 (see hostile-input.test.ts), so a route that fails on purpose
  // stands in for a bug, in front of the service's real negotiation and error handler.
  let base: string;
  let close: () => void;
  let log: LogCapture;
  before(async () => {
    log = captureLog();
    const logger = createLogger(loadConfig({}), log);
    const app = express().use(requestLog(logger, '/api')).get('/boom', negotiate, () => {
      const cause =
        Object.assign(new Error('the parser broke'), { code: 'E_PARSER', detail: 'Key (memo)=(private memo) exists' });
      throw Object.assign(new Error('select "secret" from "sighting" where 1 = 1', { cause }),
        { stack: 'Error: at /work/src/secret.ts:1:1' });
    }).get('/worse', negotiate, () => {
      // An error whose every property throws: mapping it fails inside the error handler itself.
      throw new Proxy(new Error('x'), { get: () => { throw new Error('at /work/src/handler.ts:9:9'); },
        getPrototypeOf: () => { throw new Error('no'); } });
    }).use(errorHandler);
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  after(() => close());
  beforeEach(() => { log.lines.length = 0; });

  it('when a handler throws an unknown error, ' +
    'then the answer is 500 {general: error.unknown} and the error is logged, not shown', async () => {
    const response = await fetch(`${base}/boom`, { headers: { Authorization: 'Bearer aaa.bbb.ccc' } });
    const text = await response.text();
    expect({ status: response.status, body: JSON.parse(text) })
      .to.deep.equal({ status: 500, body: { general: 'An unexpected error occurred.' } });
    expect(text).to.not.match(/select|secret|stack|\.ts/);
    const [line, ...more] = log.lines;
    expect(more).to.deep.equal([]);
    expect(line).to.deep.include({ level: 50, msg: 'request failed', method: 'GET', route: '/boom', status: 500 });
    // The log has the error and its cause; never the token, nor the data a driver error carries.
    expect(line!.err).to.deep.include({ type: 'Error', message: 'select "secret" from "sighting" where 1 = 1' });
    expect((line!.err as { cause?: unknown }).cause)
      .to.deep.include({ type: 'Error', message: 'the parser broke', code: 'E_PARSER' });
    expect(log.text()).to.not.match(/aaa\.bbb\.ccc|private memo/);
  });

  it('when the error handler itself fails, ' +
    'then the answer is still the JSON 500 with no stack, HTML or path', async () => {
    const response = await fetch(`${base}/worse`);
    const text = await response.text();
    expect({ status: response.status, type: response.headers.get('content-type'), body: JSON.parse(text) })
      .to.deep.equal({
      status: 500, type: 'application/json; charset=utf-8', body: { general: 'An unexpected error occurred.' },
    });
    expect(text).to.not.match(/<|at |\.ts|\/work/);
  });

  it('when the client reads German XML, then the 500 is German XML too', async () => {
    const response = await fetch(`${base}/boom`, { headers: { Accept: 'text/xml', 'Accept-Language': 'de' } });
    expect(response.status).to.equal(500);
    expect(await response.text()).to.equal('<?xml version="1.0" encoding="UTF-8"?><errors>' +
      '<general>Ein unerwarteter Fehler ist aufgetreten.</general></errors>');
  });
});

// OpenTelemetry: a request's spans reach an OTLP/HTTP receiver as one tree under the caller's traceparent, the server
// span named by its route template, each SQL statement a child without its values; the log line names the trace.
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { backend } from '../support/service.ts';
import { tokenFor } from '../support/tokens.ts';
import { createScratchDatabase, type ScratchDatabase } from '../support/scratch-database.ts';
import { spawnService, listening, type ServiceProcess } from '../support/service-process.ts';
import { eventually } from '../support/condition.ts';

/** Spans leave the service in batches, a moment after the answer. */
const spansArrive = { within: 30_000, what: 'the spans of the request' };

interface Span { traceId: string; spanId: string; parentSpanId?: string; name: string;
  attributes: Record<string, unknown> }
type OtlpValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
type OtlpSpan = Omit<Span, 'attributes'> & { attributes?: Array<{ key: string; value: OtlpValue }> };
type OtlpBody = { resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: Array<OtlpSpan> }> }> };

/** A receiver of OTLP/HTTP JSON (POST /v1/traces), as a collector would be. */
async function startReceiver(): Promise<{ server: Server; url: string; spans: Span[] }> {
  const spans: Span[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8').on('data', (chunk: string) => { text += chunk; }).on('end', () => {
      if (req.url === '/v1/traces') {
        for (const resource of (JSON.parse(text) as OtlpBody).resourceSpans ?? []) {
          for (const scope of resource.scopeSpans ?? []) {
            for (const span of scope.spans ?? []) {
              const attributes =
                Object.fromEntries((span.attributes ?? []).map(({ key, value }) => [key, Object.values(value)[0]]));
              spans.push({ ...span, attributes });
            }
          }
        }
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans };
}

describe('tracing (OpenTelemetry over OTLP/HTTP)', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let scratch: ScratchDatabase | undefined;
  let service: ServiceProcess;
  before(async () => {
    receiver = await startReceiver();
    scratch = backend === 'postgresql' ? await createScratchDatabase(process.env.DATABASE_URL!) : undefined;
    service = spawnService({
      LOG_LEVEL: 'info', DEMO_DATA: 'true',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '100',
      ...scratch?.env, ...(process.env.KEYCLOAK_URL && { KEYCLOAK_URL: process.env.KEYCLOAK_URL }),
    });
    // Here, with the hook's own budget: a start that loads the SDK took 9 s of CPU, on a loaded CI machine over 90 s.
    await listening(service, 170_000);
  });
  after(async () => {
    service?.child.kill('SIGINT');
    await service?.exited;
    receiver?.server.close();
    await scratch?.drop();
  });

  it('when a request comes with a traceparent, then its server span continues that trace under the route template, ' +
    'SQL statements are its descendants without values, and the log line names the trace', async () => {
    const { url, api } = await listening(service);
    const token = await tokenFor(process.env.KEYCLOAK_URL ? `${process.env.KEYCLOAK_URL}/realms/sighting`
      : `${url}/realms/sighting`, 'alice');
    const traceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');
    const response = await fetch(`${api}/sighting/-1`,
      { headers: { Authorization: `Bearer ${token}`, traceparent: `00-${traceId}-${callerSpanId}-01` } });
    expect(response.status).to.equal(200);

    const server = await eventually(() => spanBelow(traceId, callerSpanId), spansArrive);
    expect({ name: server.name, route: server.attributes['http.route'] })
      .to.deep.equal({ name: 'GET /api/sighting/{id}', route: '/api/sighting/{id}' });
    // Express's router, a child span ended before the server span, so sent with it or before.
    expect(receiver.spans.filter((span) => span.traceId === traceId && span.parentSpanId === server.spanId)
      .map((span) => span.name)).to.include('router - /api');
    const line =
      await service.lineWhere((candidate) => candidate.route === '/api/sighting/{id}' && candidate.status === 200);
    expect(line.traceId).to.equal(traceId);

    if (backend === 'postgresql') {
      // The service's SQL runs in PostgreSQL over `pg`: each statement is a span below the request's.
      const statements = await eventually(() => {
        const found = receiver.spans.filter((span) => span.traceId === traceId && span.name.startsWith('pg.query')
          && descendsFrom(span, server));
        return found.length ? found : undefined;
      }, spansArrive);
      for (const span of statements) {
        expect(span.attributes['db.system.name']).to.equal('postgresql');
        // A read by id is a named statement whose value is bound ($1); where MikroORM writes values into the text
        // instead, the span shows the statement's shape only (test/ops/statement-shape.test.ts).
        expect(String(span.attributes['db.query.text'])).to.match(/^select .* where "r"\."sighting_id" = \$1$/s)
          .and.not.include('-1');
        expect(Object.keys(span.attributes).some((key) => key.includes('values') || key.includes('parameters')),
          'no values').to.equal(false);
      }
    }
  });

  it('when a request carries an id and filter values, then no span of its trace carries them: ' +
    'url.path is the route template, url.query the parameters\' names', async () => {
    const { url, api } = await listening(service);
    const token = await tokenFor(process.env.KEYCLOAK_URL ? `${process.env.KEYCLOAK_URL}/realms/sighting`
      : `${url}/realms/sighting`, 'alice');
    const calls = [
      { path: '/sighting?sightingMemo=needle-in-the-memo&vesselId=-2', route: '/api/sighting',
        query: 'sightingMemo&vesselId', values: ['needle', '-2'] },
      { path: '/vessel/-2', route: '/api/vessel/{id}', query: undefined, values: ['-2'] },
    ];
    for (const call of calls) {
      const traceId = randomBytes(16).toString('hex');
      const callerSpanId = randomBytes(8).toString('hex');
      const response = await fetch(`${api}${call.path}`,
        { headers: { Authorization: `Bearer ${token}`, traceparent: `00-${traceId}-${callerSpanId}-01` } });
      expect(response.status, call.path).to.equal(200);
      const server = await eventually(() => spanBelow(traceId, callerSpanId), spansArrive);
      expect({ path: server.attributes['url.path'], query: server.attributes['url.query'] }, call.path)
        .to.deep.equal({ path: call.route, query: call.query });
      // Every span of the trace that has arrived with the server span (children end before it).
      const attributes = receiver.spans.filter((span) => span.traceId === traceId)
        .flatMap((span) => Object.values(span.attributes).map(String));
      for (const value of call.values) {
        expect(attributes.filter((attribute) => attribute.includes(value)),
          `${call.path}: no span carries ${value}`).to.deep.equal([]);
      }
    }
  });

  /** The span of trace `traceId` whose parent is `parentSpanId`, once it has arrived. */
  const spanBelow = (traceId: string, parentSpanId: string) =>
    receiver.spans.find((span) => span.traceId === traceId && span.parentSpanId === parentSpanId);

  function descendsFrom(span: Span, ancestor: Span): boolean {
    for (let at: Span | undefined = span; at;
      at = receiver.spans.find((candidate) => candidate.spanId === at!.parentSpanId)) {
      if (at.parentSpanId === ancestor.spanId) return true;
    }
    return false;
  }
});

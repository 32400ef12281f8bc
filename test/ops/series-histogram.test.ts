// The service's own histogram is exposed exactly as prom-client's Histogram exposes the same observations: a scrape
// cannot tell them apart, and this fails when prom-client changes what its registry writes of a histogram.
import { expect } from 'chai';
import { Histogram, Registry, type OpenMetricsContentType } from 'prom-client';
import { SeriesHistogram } from '../../src/observability/series-histogram.ts';

describe('the series histogram against the Histogram of prom-client @database-independent', () => {
  const buckets = [0.005, 0.01, 0.025, 0.05, 0.1];
  const observations: Array<[number, string, string]> = [
    [0.003, 'GET', '/api/sighting/{id}'], [0.005, 'GET', '/api/sighting/{id}'], [0.0051, 'GET', '/api/sighting/{id}'],
    [0.2, 'POST', '/api/sighting'], [7, 'GET', '/api/sighting/{id}'], [0, 'POST', '/api/sighting'],
    [0.01, 'PUT', 'a "quoted\\ route\nwith a line'],
  ];

  function both(labelNames: Array<'method' | 'route'>, openMetrics = false) {
    const [theirs, ours] = [new Registry(), new Registry()];
    // prom-client's typings fix a registry's content type where it is made; its `setContentType` changes it.
    if (openMetrics) for (const registry of [theirs, ours]) {
      (registry as unknown as Registry<OpenMetricsContentType>).setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
    }
    const histogram = new Histogram({ name: 'duration_seconds', help: 'How long.', labelNames, buckets,
      registers: [theirs] });
    const series = new SeriesHistogram({ name: 'duration_seconds', help: 'How long.', labelNames, buckets,
      registers: [ours] });
    for (const [value, method, route] of observations) {
      const labels = { method, route };
      const given = labelNames.map((name) => labels[name]);
      if (given.length) histogram.observe(Object.fromEntries(labelNames.map((name) => [name, labels[name]])), value);
      else histogram.observe(value);
      series.observe(value, ...given);
    }
    return { theirs, ours, series };
  }

  // prom-client's JSON names an exemplar on each value (none, as none is kept); the service keeps none either.
  const withoutExemplars = async (registry: Registry) => (await registry.getMetricsAsJSON()).map((metric) => ({
    ...metric,
    values: metric.values.map((value) => {
      const { exemplar: _, ...rest } = value as typeof value & { exemplar?: unknown };
      return rest;
    }) }));

  it('when series of two labels are observed, then the text exposition is the same, line for line', async () => {
    const { theirs, ours } = both(['method', 'route']);
    const text = await ours.metrics();
    expect(text).to.equal(await theirs.metrics());
    expect(text).to.include('duration_seconds_bucket{le="0.01",method="GET",route="/api/sighting/{id}"} 3');
    expect(text).to.include('duration_seconds_count{method="GET",route="/api/sighting/{id}"} 4');
  });

  it('when it has no labels, then the text, the OpenMetrics text and the JSON are the same', async () => {
    const { theirs, ours } = both([]);
    expect(await ours.metrics()).to.equal(await theirs.metrics());
    expect(await withoutExemplars(ours)).to.deep.equal(await withoutExemplars(theirs));
    const open = both([], true);
    expect(await open.ours.metrics()).to.equal(await open.theirs.metrics());
  });

  it('when series are labelled, then the JSON a registry answers is the same', async () => {
    const { theirs, ours } = both(['route', 'method']);
    expect(await withoutExemplars(ours)).to.deep.equal(await withoutExemplars(theirs));
  });

  it('when the registry is reset, then no series is left, as in prom-client\'s', async () => {
    const { theirs, ours } = both(['method', 'route']);
    for (const registry of [theirs, ours]) registry.resetMetrics();
    expect(await ours.metrics()).to.equal(await theirs.metrics());
    expect(await ours.metrics()).not.to.include('duration_seconds_count');
  });

  it('when observed with the wrong number of label values, then it refuses', () => {
    const { series } = both(['method', 'route']);
    expect(() => series.observe(1, 'GET')).to.throw(/labels method, route, given 1 values/);
  });
});

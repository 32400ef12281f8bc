// A Prometheus histogram observed several times a request (a request's duration, each statement's, each acquire
// wait), at the cost of an array index: prom-client's Histogram validates and hashes the labels into a string, and
// counts into buckets keyed by the bound's text, on every observation. It is registered on prom-client's registry
// (`registerMetric`) and exposed as prom-client's own Histogram exposes the same observations: the same lines, in
// the same order (test/observability/series-histogram.test.ts compares the two).
import type { Metric, Registry } from 'prom-client';

interface Series {
  labels: Readonly<Record<string, string>>;
  /** Observations per bucket, not cumulative: the last one counts those above every bound (`+Inf`). */
  counts: number[];
  sum: number;
  count: number;
}

export interface SeriesHistogramOptions<L extends string> {
  name: string;
  help: string;
  labelNames?: readonly L[];
  buckets: readonly number[];
  registers: readonly Registry[];
}

export class SeriesHistogram<L extends string = never> {
  readonly name: string;
  readonly help: string;
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly #labelNames: readonly L[];
  readonly #bounds: readonly number[];
  // By each label's value in turn, a map per label: a series is made once, then found without a string made for it.
  #series = new Map<string, unknown>();
  readonly #made: Series[] = [];

  constructor({ name, help, labelNames = [], buckets, registers }: SeriesHistogramOptions<L>) {
    this.name = name;
    this.help = help;
    this.#labelNames = labelNames;
    this.#bounds = [...buckets].sort((a, b) => a - b);
    // Public API of the registry: any object with prom-client's metric shape (name, help, type, get) can be registered.
    for (const registry of registers) registry.registerMetric(this as unknown as Metric);
  }

  /** One observation of the series whose label values are `values`, in the order of `labelNames`. */
  observe(value: number, ...values: string[]): void {
    const series = this.#seriesOf(values);
    const bounds = this.#bounds;
    let index = 0;
    while (index < bounds.length && value > bounds[index]!) index += 1;
    series.counts[index]! += 1;
    series.sum += value;
    series.count += 1;
  }

  #seriesOf(values: readonly string[]): Series {
    if (values.length !== this.#labelNames.length) throw new Error(
      `${this.name} has the labels ${this.#labelNames.join(', ')}, given ${values.length} values`);
    let level = this.#series;
    for (let index = 0; index < values.length - 1; index += 1) {
      let next = level.get(values[index]!) as Map<string, unknown> | undefined;
      if (next === undefined) level.set(values[index]!, next = new Map());
      level = next;
    }
    const last = values.at(-1) ?? '';
    let series = level.get(last) as Series | undefined;
    if (series === undefined) level.set(last, series = this.#madeFor(values));
    return series;
  }

  #madeFor(values: readonly string[]): Series {
    const labels = Object.fromEntries(this.#labelNames.map((name, index) => [name, values[index]!]));
    const series = { labels, counts: new Array<number>(this.#bounds.length + 1).fill(0), sum: 0, count: 0 };
    this.#made.push(series);
    return series;
  }

  /** What the registry exposes: each series' cumulative buckets, `+Inf`, sum and count, as prom-client's Histogram. */
  async get() {
    const values = [];
    for (const { labels, counts, sum, count } of this.#made) {
      let cumulative = 0;
      for (const [index, bound] of this.#bounds.entries()) {
        cumulative += counts[index]!;
        values.push({ labels: { le: bound, ...labels }, value: cumulative, metricName: `${this.name}_bucket` });
      }
      values.push({ labels: { le: '+Inf', ...labels }, value: count, metricName: `${this.name}_bucket` },
        { labels, value: sum, metricName: `${this.name}_sum` },
        { labels, value: count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    this.#series = new Map();
    this.#made.length = 0;
  }
}

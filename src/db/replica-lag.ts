// Measures how far each read replica's replay is behind, every second, on a connection of its own.
import pg from 'pg';

/**
 * Behind by nothing when the replica has replayed all the WAL it received (an idle primary sends none, so the time
 * since the last replayed transaction would grow without the replica being behind); else by the time since the last
 * transaction it replayed. That overstates the lag of a replica that fell behind after a long quiet spell, which only
 * keeps reads on the primary a little longer.
 */
const lagQuery = `select case
  when pg_last_wal_receive_lsn() is null or pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() then 0
  else greatest(0, extract(epoch from now() - pg_last_xact_replay_timestamp()) * 1000) end::float8 as lag_ms`;

export interface ReplicaLagSettings {
  urls: readonly string[];
  intervalMs: number;
  connectTimeoutMs: number;
  /** Each measurement, NaN when the replica could not be asked (metrics). */
  measured?(index: number, lagMs: number): void;
}

export class ReplicaLag {
  readonly #settings: ReplicaLagSettings;
  readonly #lags: number[];
  readonly #clients: Array<pg.Client | undefined>;
  readonly #busy: boolean[];
  #timer: NodeJS.Timeout | undefined;

  constructor(settings: ReplicaLagSettings) {
    this.#settings = settings;
    this.#lags = settings.urls.map(() => Number.NaN);
    this.#clients = settings.urls.map(() => undefined);
    this.#busy = settings.urls.map(() => false);
  }

  start(): void {
    if (!this.#settings.urls.length) return;
    this.#timer = setInterval(() => this.#measureAll(), this.#settings.intervalMs).unref();
    this.#measureAll();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await Promise.all(this.#clients.map((client) => client?.end().catch(() => {})));
  }

  /**
   * True when some replica is known to lag more than `maxMs`. A replica that cannot be asked is not counted as
   * lagging: reads it fails are answered by the primary anyway (src/db/read-routing.ts).
   */
  anyBehind(maxMs: number): boolean {
    return this.#lags.some((lag) => lag > maxMs);
  }

  #measureAll(): void {
    for (let index = 0; index < this.#settings.urls.length; index += 1) {
      if (this.#busy[index]) continue;
      this.#busy[index] = true;
      void this.#measure(index).finally(() => { this.#busy[index] = false; });
    }
  }

  async #measure(index: number): Promise<void> {
    let lag = Number.NaN;
    try {
      let client = this.#clients[index];
      if (!client) {
        client = new pg.Client({
          connectionString: this.#settings.urls[index], connectionTimeoutMillis: this.#settings.connectTimeoutMs,
          query_timeout: this.#settings.intervalMs * 5, application_name: 'sighting-registry replica lag',
        });
        this.#clients[index] = client;
        client.on('error', () => {});
        await client.connect();
      }
      const { rows } = await client.query<{ lag_ms: number }>(lagQuery);
      lag = rows[0]!.lag_ms;
    } catch {
      // Asked again afresh next time.
      await this.#clients[index]?.end().catch(() => {});
      this.#clients[index] = undefined;
    }
    this.#lags[index] = lag;
    this.#settings.measured?.(index, lag);
  }
}

// The soak's clients (bench/soak.ts): writers at a rate, change-feed subscribers that come, resume and go, a prober
// reading by id, and the clients that leave; what they saw, gathered per minute.
import type { Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import type { ServerProcess } from './processes.ts';
import { percentile } from './load.ts';

type User = 'alice' | 'bob' | 'viewer' | 'admin';
type Headers = Record<string, string>;
const subscribingUsers: readonly User[] = ['alice', 'bob', 'viewer', 'admin'];
const writingUsers: readonly User[] = ['alice', 'bob'];
/** Tokens live five minutes; one is fetched anew a minute before. */
const tokenLifeMs = 4 * 60_000;

export interface SoakSettings {
  writesPerSecond: number;
  subscribers: number;
  token(server: ServerProcess, user: User): Promise<string>;
}

export interface Leavers {
  abort(server: ServerProcess, headers: Headers): Promise<void>;
  neverRead(server: ServerProcess, headers: Headers): Socket;
}

export interface MinuteFigures {
  readP99: number;
  deliveryP99: number;
  requests: number;
  status503: number;
  status429: number;
  other5xx: number;
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

export class SoakClients {
  readonly #servers: readonly ServerProcess[];
  readonly #settings: SoakSettings;
  readonly #tokens = new Map<string, { token: Promise<string>; fetchedAt: number }>();
  /** When each create was answered, by record id: an event's delivery is measured from it. */
  readonly #answeredAt = new Map<number, number>();
  #reads: number[] = [];
  #deliveries: number[] = [];
  #counts = { requests: 0, status503: 0, status429: 0, other5xx: 0 };

  constructor(servers: readonly ServerProcess[], settings: SoakSettings) {
    this.#servers = servers;
    this.#settings = settings;
  }

  async #headers(server: ServerProcess, user: User): Promise<Headers> {
    const key = `${server.url} ${user}`;
    let entry = this.#tokens.get(key);
    if (!entry || Date.now() - entry.fetchedAt > tokenLifeMs)
      this.#tokens.set(key, entry = { token: this.#settings.token(server, user), fetchedAt: Date.now() });
    return { Authorization: `Bearer ${await entry.token}` };
  }

  #count(status: number): void {
    this.#counts.requests += 1;
    if (status === 503) this.#counts.status503 += 1;
    else if (status === 429) this.#counts.status429 += 1;
    else if (status >= 500) this.#counts.other5xx += 1;
  }

  /** Runs every client until `ends` (milliseconds since the epoch); resolves once all have stopped. */
  async run(ends: number, leavers: Leavers): Promise<void> {
    await Promise.all([
      this.#write(ends),
      this.#probe(ends),
      this.#leave(ends, leavers),
      ...Array.from({ length: this.#settings.subscribers },
        (_, i) => this.#subscribe(ends, subscribingUsers[i % subscribingUsers.length]!)),
    ]);
  }

  /** The minute's figures since the last call. */
  minute(): MinuteFigures {
    const figures = { readP99: this.#reads.length ? percentile(this.#reads, 0.99) : 0,
      deliveryP99: this.#deliveries.length ? percentile(this.#deliveries, 0.99) : 0, ...this.#counts };
    this.#reads = [];
    this.#deliveries = [];
    this.#counts = { requests: 0, status503: 0, status429: 0, other5xx: 0 };
    for (const [id, at] of this.#answeredAt) if (Date.now() - at > 60_000) this.#answeredAt.delete(id);
    return figures;
  }

  async #write(ends: number): Promise<void> {
    const inFlight = new Set<Promise<void>>();
    for (let i = 0; Date.now() < ends; i++) {
      // At most 64 creates waiting: an instance that slows down is not buried under a backlog the soak made.
      if (inFlight.size < 64) {
        const server = this.#servers[i % this.#servers.length]!;
        const create = (async () => {
          const response = await fetch(`${server.url}/api/sighting`, {
            method: 'POST', headers: { ...await this.#headers(server, writingUsers[i % writingUsers.length]!),
              'Content-Type': 'application/json' },
            body: JSON.stringify({ sightingMemo: `soak ${i}`, vessel: { vesselId: -1 } }),
          });
          this.#count(response.status);
          const id = Number(response.headers.get('location')?.split('/').pop());
          if (response.status === 201) this.#answeredAt.set(id, performance.timeOrigin + performance.now());
          await response.body?.cancel();
        })().catch(() => {}).finally(() => inFlight.delete(create));
        inFlight.add(create);
      }
      await delay(1000 / this.#settings.writesPerSecond);
    }
    await Promise.all(inFlight);
  }

  async #probe(ends: number): Promise<void> {
    while (Date.now() < ends) {
      for (const server of this.#servers) {
        const headers = await this.#headers(server, 'viewer');
        const started = performance.now();
        const response = await fetch(`${server.url}/api/sighting/-1`, { headers }).catch(() => undefined);
        if (response) {
          this.#count(response.status);
          await response.body?.cancel();
          if (response.status === 200) this.#reads.push(performance.now() - started);
        }
      }
      await delay(100);
    }
  }

  /**
   * Lists dropped after 64 KiB twice a second; a list never read every five seconds, dropped by the client after a
   * minute.
   */
  async #leave(ends: number, { abort, neverRead }: Leavers): Promise<void> {
    const sockets = new Set<Socket>();
    for (let tick = 0; Date.now() < ends; tick++) {
      const server = pick(this.#servers);
      const headers = await this.#headers(server, 'viewer');
      void abort(server, headers).catch(() => {});
      if (tick % 10 === 0) {
        const socket = neverRead(server, headers);
        sockets.add(socket);
        setTimeout(() => { socket.destroy(); sockets.delete(socket); }, 60_000).unref();
      }
      await delay(500);
    }
    for (const socket of sockets) socket.destroy();
  }

  /** Stays 5–20 s on a random instance, goes for up to 2 s, and resumes after the last event it had. */
  async #subscribe(ends: number, user: User): Promise<void> {
    let last: string | undefined;
    while (Date.now() < ends) {
      const server = pick(this.#servers);
      const leave = new AbortController();
      const timer =
        setTimeout(() => leave.abort(), Math.min(5000 + Math.random() * 15_000, Math.max(0, ends - Date.now())));
      const openedAt = performance.timeOrigin + performance.now();
      try {
        const response = await fetch(`${server.url}/api/sighting/events`, {
          headers: { ...await this.#headers(server, user), Accept: 'text/event-stream',
            ...(last && { 'Last-Event-ID': last }) }, signal: leave.signal,
        });
        this.#count(response.status);
        if (response.status === 200 && response.body) {
          const decoder = new TextDecoder();
          let buffer = '';
          for await (const chunk of response.body) {
            buffer += decoder.decode(chunk, { stream: true });
            for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
              last = this.#received(buffer.slice(0, end), openedAt) ?? last;
              buffer = buffer.slice(end + 2);
            }
          }
        }
      } catch {
        // Left on purpose (the abort), or cut by the instance.
      } finally {
        clearTimeout(timer);
      }
      await delay(Math.random() * 2000);
    }
  }

  /**
   * Notes an event's delivery (only one created since the stream opened: a resumed stream's backlog is no delay); its
   * id.
   */
  #received(block: string, openedAt: number): string | undefined {
    const id = /^id: (\d+)$/m.exec(block)?.[1];
    const data = /^data: (.*)$/m.exec(block)?.[1];
    if (/^event: created$/m.test(block) && data) {
      const answeredAt = this.#answeredAt.get((JSON.parse(data) as { id: number }).id);
      if (answeredAt !== undefined && answeredAt >= openedAt)
        this.#deliveries.push(Math.max(0, performance.timeOrigin + performance.now() - answeredAt));
    }
    return id;
  }
}

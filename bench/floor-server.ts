// The floor: the benchmarked operations with node:http + pg + jose only, the least SQL (bench/floor-sql.ts: each write
// one statement keeping its history entry, as the service's guarantees require) and byte-identical bodies; the read by
// id and the writes are named statements on PostgreSQL, as the service sends them (src/db/named-statements.ts).
// Run by `npm run bench` as a process of its own; settings from the environment (PORT, DATABASE_URL or DATA_DIR,
// DB_POOL_MAX, ISSUER, AUDIENCE, LIST_CHUNK, FLOOR_UNNAMED, FLOOR_DESIGN).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createLocalJWKSet, jwtVerify, type JWTPayload } from 'jose';
import { VerifiedTokens } from '../src/auth/verified-tokens.ts';
// The service's own conversion, done by position: the least work there is for it.
import { localDateTimeText } from '../src/db/local-date-time-text.ts';
import { openFloorDb, type Row } from './floor-db.ts';
import * as sql from './floor-sql.ts';
import { designFloor } from './design-floor.ts';

const env = process.env;
const db = await openFloorDb(env);
const chunkSize = Number(env.LIST_CHUNK ?? 1000);
// The design floor reads and writes with the service's own statements (bench/floor-sql.ts, `designReads` and
// `designWrites`).
const design = env.FLOOR_DESIGN === 'true';
const reads = design ? { ...sql, readSql: sql.designReads.read, listPageSql: sql.designReads.listPage,
  qbeBatchSql: sql.designReads.qbeBatch } : sql;
// Keys imported once (jose caches the imported key per `kid`); the same cache of verified tokens as the service.
const jwks = createLocalJWKSet(await (await fetch(`${env.ISSUER}/protocol/openid-connect/certs`)).json() as never);
const verified = new VerifiedTokens<JWTPayload>();

/** The caller's token subject and username (what a history entry names), or undefined without a valid token. */
async function caller(req: IncomingMessage): Promise<{ sub: string; username: string } | undefined> {
  const token = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/.exec(req.headers.authorization ?? '')?.[1];
  if (!token) return undefined;
  let claims = verified.get(token);
  if (!claims) {
    claims =
      (await jwtVerify(token, jwks, { issuer: env.ISSUER, audience: env.AUDIENCE }).catch(() => undefined))?.payload;
    if (claims) verified.set(token, claims, claims.exp);
  }
  return claims?.sub === undefined ? undefined
    : { sub: claims.sub, username: (claims.preferred_username as string | undefined) ?? claims.sub };
}

const name = (names: unknown) => {
  const pairs = (names ?? []) as [string, string][];
  return (pairs.find(([key]) => key.toLowerCase().replace(/_/g, '-').split('-')[0] === 'en') ?? pairs[0])?.[1] ?? null;
};
// Vessels do not change while the benchmark runs: their versions and English names are held in memory.
const vessels = new Map((await db.query(sql.vesselsSql, [])).map((v) =>
  [v.vessel_id as number, { version: v.version, name: name(v.names) }]));
/** The row's vessel: as the design floor's statements read it with the row (sql.designReads), else from the map. */
const vessel = (r: Row) => (Object.hasOwn(r, 'vessel_name') ? { version: r.vessel_version, name: r.vessel_name }
  : Object.hasOwn(r, 'vessel_names') ? { version: r.vessel_version, name: name(JSON.parse(String(r.vessel_names))) }
  : vessels.get(r.vessel_id as number) ?? { version: null, name: null });
const detail = (r: Row) => {
  const { version, name: vesselName } = vessel(r);
  return JSON.stringify({
    version: r.version, sightingId: r.sighting_id, sightingMemo: r.sighting_memo,
    vessel: { version, vesselId: r.vessel_id, vesselName },
    sightingTimezone: r.sighting_timezone, sightingDate: localDateTimeText(r.sighting_date),
  });
};
// A history entry's record is the view row as it was then: its vessel's version and names too.
const historyEntry = (e: Row) => {
  const r = e.row as Row | null;
  return JSON.stringify({
    version: e.version, change: e.change, changedAt: e.changed_at,
    record: r && {
      version: r.version, sightingId: r.sighting_id, sightingMemo: r.sighting_memo,
      // The entry holds the view row as the service's view query read it: the names as their JSON text.
      vessel: { version: r.vessel_version, vesselId: r.vessel_id,
        vesselName: name(typeof r.vessel_names === 'string' ? JSON.parse(r.vessel_names) : r.vessel_names) },
      sightingTimezone: r.sighting_timezone, sightingDate: localDateTimeText(r.sighting_date),
    },
  });
};
const listRecord = (r: Row) => ({
  sightingId: r.sighting_id, vessel: { vesselId: r.vessel_id, vesselName: vessel(r).name },
  sightingTimezone: r.sighting_timezone, sightingDate: localDateTimeText(r.sighting_date),
});
const listItem = (r: Row) => JSON.stringify(listRecord(r));

// The change feed's least work: the streams open on this process, each create written to them once it is inserted
// (no history, no other instance to hear of it; the event id is the record's id, having no feed position).
const feedStreams = new Set<ServerResponse>();
function announceCreated(row: Row): void {
  const event = `id: ${row.sighting_id}\nevent: created\n` +
    `data: ${JSON.stringify({ id: row.sighting_id, version: row.version, record: listRecord(row) })}\n\n`;
  for (const stream of feedStreams) stream.write(event);
}

async function body(req: IncomingMessage): Promise<Record<string, unknown>> {
  // The design floor's express has parsed it already, for the validator.
  const parsed = (req as IncomingMessage & { body?: Record<string, unknown> }).body;
  if (parsed !== undefined) return parsed;
  let text = '';
  for await (const chunk of req) text += chunk;
  return JSON.parse(text) as Record<string, unknown>;
}

/** Writes the rows as a JSON array in chunks of about 64 KiB, waiting for the socket to drain. */
async function streamList(res: ServerResponse, chunks: AsyncGenerator<Row[]>, view: (r: Row) => string,
  emptyStatus: number) {
  let out = '';
  let first = true;
  for await (const rows of chunks) {
    for (const row of rows) {
      if (first) res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
      out += (first ? '[' : ',') + view(row);
      first = false;
    }
    if (out.length >= 65536) {
      if (!res.write(out)) await new Promise((resolve) => res.once('drain', resolve));
      out = '';
    }
  }
  if (first) return void res.writeHead(emptyStatus, emptyStatus === 200
    ? { 'Content-Type': 'application/json; charset=utf-8' } : {}).end(emptyStatus === 200 ? '[]' : undefined);
  res.end(`${out}]`);
}

/**
 * The service's other guarantee of a write: the instances sharing the database hear of it. As the service does
 * (src/feed/commit-announcer.ts), one NOTIFY after each burst of commits, one at a time; PGlite has no other instance.
 */
let announcing = false;
let announceAgain = false;
function announceCommit(): void {
  if (!env.DATABASE_URL) return;
  if (announcing) return void (announceAgain = true);
  announcing = true;
  void db.query('notify record_change', []).catch(() => undefined).finally(() => {
    announcing = false;
    if (announceAgain) {
      announceAgain = false;
      announceCommit();
    }
  });
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const who = await caller(req);
  if (!who) return void res.writeHead(401).end();
  const url = new URL(req.url!, 'http://floor');
  const id = /^\/api\/sighting\/(-?\d+)$/.exec(url.pathname)?.[1];
  if (req.method === 'GET' && id) {
    const [row] = await db.query(reads.readSql, [Number(id)], 'read');
    if (!row) return void res.writeHead(404).end();
    return void res.writeHead(200,
      { 'Content-Type': 'application/json; charset=utf-8', ETag: `"${row.version}"` }).end(detail(row));
  }
  const historyOf = /^\/api\/sighting\/(-?\d+)\/versions$/.exec(url.pathname)?.[1];
  if (req.method === 'GET' && historyOf) {
    const entries = await db.query(sql.historySql, [Number(historyOf), Number(url.searchParams.get('limit') ?? 1000)]);
    return void res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' })
      .end(`[${entries.map(historyEntry).join(',')}]`);
  }
  if (req.method === 'PATCH' && id) {
    const stated = Number(/^"(-?\d+)"$/.exec(req.headers['if-match'] ?? '')?.[1]);
    const [row] =
      await db.query(sql.patchMemoSql, [(await body(req)).sightingMemo, Number(id), stated, who.username], 'patch');
    if (!row) return void res.writeHead(409).end();
    announceCommit();
    return void res.writeHead(204, { ETag: `"${row.version}"` }).end();
  }
  if (req.method === 'PUT' && id) {
    const b = await body(req);
    const values = [b.sightingMemo ?? null, (b.vessel as { vesselId: number }).vesselId, b.sightingTimezone ?? null,
      b.sightingDate ?? null];
    const [row] = design
      ? await db.query(sql.designWrites.replace, [...values, ...values, Number(id), b.version, 'sighting',
        who.username, b.version], 'put')
      : await db.query(sql.putSql, [...values, Number(id), b.version, who.username], 'put');
    if (!row) return void res.writeHead(409).end();
    announceCommit();
    return void res.writeHead(204, { ETag: `"${row.version}"` }).end();
  }
  if (req.method === 'GET' && url.pathname === '/api/sighting' && url.searchParams.has('limit')) {
    // A page, as the service answers it: one row more than asked, and the next page's link while there is one.
    const limit = Number(url.searchParams.get('limit'));
    // The design floor sends the service's page statement unnamed, as the service does (src/crud/read/
    // statement-shapes.ts).
    const rows = await db.query(reads.listPageSql, [limit + 1], design ? undefined : 'page');
    const link = rows.length > limit
      ? { Link: `</api/sighting?limit=${limit}&after=${rows[limit - 1]!.sighting_id}>; rel="next"` } : {};
    return void res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', ...link })
      .end(`[${rows.slice(0, limit).map(listItem).join(',')}]`);
  }
  if (req.method === 'GET' && url.pathname === '/api/sighting') {
    return streamList(res, db.chunks(sql.listBatchSql, [], chunkSize, 'list'), listItem, 200);
  }
  if (req.method === 'POST' && url.pathname === '/api/sighting') {
    const b = await body(req);
    const fields = { vessel_id: (b.vessel as { vesselId: number }).vesselId,
      sighting_timezone: b.sightingTimezone ?? null, sighting_date: b.sightingDate ?? null };
    const values = [b.sightingMemo ?? null, fields.vessel_id, fields.sighting_timezone, fields.sighting_date, who.sub];
    const [row] = design
      ? (await db.query(sql.designWrites.create, [...values, 'sighting', who.username], 'create'))
        .map(({ id: sighting_id, version }) => ({ sighting_id, version }))
      : await db.query(sql.createSql, [...values, who.username], 'create');
    announceCommit();
    res.writeHead(201, { Location: `/api/sighting/${row!.sighting_id}`, ETag: `"${row!.version}"` }).end();
    return announceCreated({ ...row, ...fields });
  }
  if (req.method === 'GET' && url.pathname === '/api/sighting/events') {
    res.writeHead(200,
      { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store' }).flushHeaders();
    feedStreams.add(res);
    return void res.once('close', () => feedStreams.delete(res));
  }
  if (req.method === 'POST' && url.pathname === '/api/sighting/qbe') {
    // Unnamed, as the service sends it: a prepared statement's generic plan reads every row for a rare substring.
    const pattern = `%${String((await body(req)).sightingMemo).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return streamList(res, db.chunks(reads.qbeBatchSql, [pattern], chunkSize), detail, 204);
  }
  res.writeHead(404).end();
}

// FLOOR_DESIGN=true: the same handlers behind express and the contract's validator (bench/design-floor.ts).
const server = design ? createServer(designFloor(handle)) : createServer((req, res) => {
  handle(req, res).catch((error: unknown) => {
    console.error(error);
    if (!res.headersSent) res.writeHead(500);
    res.end();
  });
});
server.listen(Number(env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`floor listening on http://127.0.0.1:${(server.address() as { port: number }).port}`);
});
process.once('SIGTERM', () => { server.close(); server.closeAllConnections(); process.exit(0); });

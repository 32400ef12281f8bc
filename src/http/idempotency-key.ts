// Idempotency-Key on creates (IETF httpapi idempotency-key draft): a retried create gets its first answer again.
import { createHash } from 'node:crypto';
import { setImmediate } from 'node:timers/promises';
import type { RequestHandler, Response } from 'express';
import { UniqueConstraintViolationException, type EntityManager, type MikroORM } from '@mikro-orm/core';
import { IdempotencyRecord } from '../db/entities/idempotency-record.entity.ts';
import { Conflict, UnprocessableContent } from '../errors/app-errors.ts';
import type { Principal } from '../auth/access-rules.ts';
import { holdAnswer } from './send.ts';
import { BatchRecordTexts } from './batch-record-texts.ts';
import { operationOf } from '../contract/resolution.ts';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
// Per-message and hop-by-hop headers belong to the replay itself, not to the stored answer.
const notStored = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'date']);
// A first request still in flight after this long died with its instance (requests time out after 30 s).
const abandonedAfterMs = 60_000;

export function idempotencyKey(orm: MikroORM, windowSeconds: number): RequestHandler {
  return async (req, res, next) => {
    const header = req.get('Idempotency-Key');
    // The draft's key is a structured-field string ("…"); a bare token is taken as it is.
    const key = header?.replace(/^"(.*)"$/, '$1');
    const operationId = operationOf(req)?.contract.operationId ?? '';
    if (!key || !operationId.startsWith('create')) return next();

    const keyHash = sha256(`${(res.locals.principal as Principal).subject}\n${key}`);
    const fingerprint = await fingerprintOf(`${req.method} ${req.baseUrl}${req.path}\n`, req.body);
    const em = orm.em.fork();
    const earlier = await claim(em, keyHash, fingerprint, windowSeconds);
    if (earlier) {
      if (earlier.fingerprint !== fingerprint) throw new UnprocessableContent('error.idempotency.keyReused');
      if (earlier.status === null || earlier.status === undefined) throw new Conflict('error.idempotency.inFlight', {},
        { 'Retry-After': '1' });
      res.status(earlier.status);
      for (const [name, value] of Object.entries(earlier.headers ?? {})) res.setHeader(name, value);
      res.end(earlier.body ?? undefined);
      return;
    }
    recordAnswer(res, em, keyHash);
    next();
  };
}

/**
 * The hash of the request line and its body's JSON. A batch's array is hashed record by record, the event loop turning
 * every thousand, to the same digest as its whole JSON text, which is never made
 * (docs/api.md#whole-data-sets-in-batch-create).
 */
async function fingerprintOf(request: string, body: unknown): Promise<string> {
  const hash = createHash('sha256').update(request);
  const records = body instanceof BatchRecordTexts ? body : undefined;
  if (!records && !Array.isArray(body)) return hash.update(`${JSON.stringify(body)}`).digest('hex');
  const length = records?.length ?? (body as unknown[]).length;
  hash.update('[');
  for (let index = 0; index < length; index += 1) {
    if (index > 0) {
      hash.update(',');
      if (index % 1000 === 0) await setImmediate();
    }
    // As JSON.stringify writes an array: an element without JSON (undefined) is null.
    hash.update(records?.json(index) ?? JSON.stringify((body as unknown[])[index]) ?? 'null');
  }
  return hash.update(']').digest('hex');
}

/** Claims the key for this request; gives back the earlier use instead when there is one that still counts. */
async function claim(em: EntityManager, keyHash: string, fingerprint: string,
  windowSeconds: number): Promise<IdempotencyRecord | undefined> {
  // A few rounds at most: each lost one means another request (maybe on another instance) took the key meanwhile.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      await em.insert(IdempotencyRecord, { keyHash, fingerprint, status: null, headers: null, body: null,
        createdAt: new Date() });
      return undefined;
    } catch (error) {
      if (!(error instanceof UniqueConstraintViolationException)) throw error;
    }
    const earlier = await em.fork().findOne(IdempotencyRecord, { keyHash });
    if (!earlier) continue;
    const age = Date.now() - earlier.createdAt.getTime();
    const expired = age > windowSeconds * 1000 || (earlier.status === null && age > abandonedAfterMs);
    if (!expired) return earlier;
    // Only that very use is removed: another instance may have claimed the key again in between.
    await em.nativeDelete(IdempotencyRecord, { keyHash, createdAt: earlier.createdAt });
  }
  throw new Conflict('error.idempotency.inFlight', {}, { 'Retry-After': '1' });
}

/**
 * Stores the answer before it is sent, so a client retrying the moment it has the answer finds it stored. A 5xx
 * is not an answer to replay: the key is released and a retry runs the create again.
 */
function recordAnswer(res: Response, em: EntityManager, keyHash: string): void {
  holdAnswer(res, async ({ status, headers, body }) => {
    const kept = Object.fromEntries(Object.entries(headers).filter(([name]) => !notStored.has(name)));
    const stored = status >= 500
      ? em.nativeDelete(IdempotencyRecord, { keyHash })
      : em.nativeUpdate(IdempotencyRecord, { keyHash }, { status, headers: kept, body });
    await stored.catch((error: unknown) => console.error('an Idempotency-Key answer could not be stored', error));
  });
}

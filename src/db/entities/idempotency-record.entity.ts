// One use of an Idempotency-Key: who sent it with which request, and the answer once there is one.
import { defineEntity, p } from '@mikro-orm/core';

export const IdempotencyRecordSchema = defineEntity({
  name: 'IdempotencyRecord',
  tableName: 'idempotency_key',
  indexes: [{ name: 'idempotency_key_created_at_index', properties: ['createdAt'] }],
  properties: {
    // sha256 of the caller's subject and the key: a key is the caller's own, and any length fits the column.
    keyHash: p.string().length(64).primary(),
    // sha256 of method, path and body: the same key with another request is refused.
    fingerprint: p.string().length(64),
    // Null while the first request is in flight.
    status: p.integer().nullable(),
    headers: p.json<Record<string, string>>().nullable(),
    body: p.text().nullable(),
    createdAt: p.datetime().length(3),
  },
});

export class IdempotencyRecord extends IdempotencyRecordSchema.class {}
IdempotencyRecordSchema.setClass(IdempotencyRecord);

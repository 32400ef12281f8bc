// Every entity the ORM maps.
export { Timezone } from './timezone.entity.ts';
export { Vessel } from './vessel.entity.ts';
export { Translation } from './translation.entity.ts';
export { Sighting } from './sighting.entity.ts';
export { IdempotencyRecord } from './idempotency-record.entity.ts';

// The migrations in the order they run; listed by hand so no file-system glob decides the order.
import { InitialSchema } from './0001-initial-schema.ts';
import { IdempotencyKeys } from './0002-idempotency-keys.ts';

export const migrationsList = [
  { name: '0001-initial-schema', class: InitialSchema },
  { name: '0002-idempotency-keys', class: IdempotencyKeys },
];

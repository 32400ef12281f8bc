// The answers to creates sent with an Idempotency-Key, kept in the database so every instance replays them.
import { Migration } from '@mikro-orm/migrations';

export class IdempotencyKeys extends Migration {
  override up(): void {
    this.addSql(`create table "idempotency_key" (
      "key_hash" varchar(64) primary key,
      "fingerprint" varchar(64) not null,
      "status" int null,
      "headers" jsonb null,
      "body" text null,
      "created_at" timestamptz(3) not null)`);
    // Expired keys are deleted by age.
    this.addSql('create index "idempotency_key_created_at_index" on "idempotency_key" ("created_at")');
  }

  override down(): void {
    this.addSql('drop table if exists "idempotency_key"');
  }
}

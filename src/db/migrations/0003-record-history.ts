// Record history and the change feed: one row per committed change, with event ids that grow in commit order.
import { Migration } from '@mikro-orm/migrations';

export class RecordHistory extends Migration {
  override up(): void {
    this.addSql('create sequence "record_change_event_id_seq"');
    this.addSql(`create table "record_change" (
      "event_id" bigint primary key,
      "collection" varchar(64) not null,
      "record_id" bigint not null,
      "version" int not null,
      "change" varchar(8) not null,
      "changed_at" timestamptz(3) not null,
      "changed_by" varchar(255) null,
      "row" jsonb null,
      "scope" jsonb not null)`);
    this.addSql('create index "record_change_record_index" on "record_change" ("collection", "record_id", "version")');
    // The triggers as the entity declares them (src/db/entities/record-change.entity.ts), in MikroORM's own DDL.
    this.addSql(`create function "record_change_record_change_in_commit_order_fn"() returns trigger as $$ begin ` +
      `perform pg_advisory_xact_lock(7305614298611); new.event_id := nextval('record_change_event_id_seq'); ` +
      `return new; end; $$ language plpgsql`);
    this.addSql(
      'create trigger "record_change_in_commit_order" before insert on "record_change" for each row execute function ' +
      '"record_change_record_change_in_commit_order_fn"()');
    this.addSql(`create function "record_change_record_change_notify_fn"() returns trigger as $$ begin perform ` +
      `pg_notify('record_change', ''); return null; end; $$ language plpgsql`);
    this.addSql(
      'create trigger "record_change_notify" after insert on "record_change" for each statement execute function ' +
      '"record_change_record_change_notify_fn"()');
  }

  override down(): void {
    this.addSql('drop table if exists "record_change"');
    this.addSql(
      'drop function if exists "record_change_record_change_in_commit_order_fn"(), ' +
      '"record_change_record_change_notify_fn"()');
    this.addSql('drop sequence if exists "record_change_event_id_seq"');
  }
}

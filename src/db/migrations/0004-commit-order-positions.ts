// The change feed's order placed after commit by one sequencer at a time, instead of a lock every writer held to
// commit.
import { Migration } from '@mikro-orm/migrations';

export class CommitOrderPositions extends Migration {
  override up(): void {
    // Writers no longer serialize on a lock held until commit (it capped a database at one commit at a time): an
    // entry takes its id from the sequence as any row does, and its place in commit order later
    // (src/feed/sequencer.ts).
    this.addSql('drop trigger if exists "record_change_in_commit_order" on "record_change"');
    this.addSql('drop function if exists "record_change_record_change_in_commit_order_fn"()');
    this.addSql(
      `alter table "record_change" alter column "event_id" set default nextval('record_change_event_id_seq')`);
    this.addSql('alter sequence "record_change_event_id_seq" owned by "record_change"."event_id"');
    this.addSql('alter table "record_change" add "position" bigint null');
    this.addSql('alter table "record_change" add constraint "record_change_position_unique" unique ("position")');
    this.addSql('create index "record_change_unplaced_index" on "record_change" ("event_id") where "position" is null');
    this.addSql('create sequence "record_change_position_seq"');
    // The entries so far were in commit order already (the lock): their event ids are their places.
    this.addSql('update "record_change" set "position" = "event_id"');
    this.addSql(`select setval('record_change_position_seq', ` +
      `coalesce((select max("position") from "record_change"), 0) + 1, false)`);
  }

  override down(): void {
    this.addSql('drop sequence if exists "record_change_position_seq"');
    this.addSql('drop index if exists "record_change_unplaced_index"');
    this.addSql('alter table "record_change" drop column if exists "position"');
  }
}

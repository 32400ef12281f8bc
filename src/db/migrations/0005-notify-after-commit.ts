// Commits are announced by the instance that made them, after the commit (src/feed/commit-announcer.ts), no longer by
// a trigger inside every write's transaction: PostgreSQL holds one lock per database from a notifying transaction's
// commit to its WAL flush, so the trigger made all writes commit one at a time.
import { Migration } from '@mikro-orm/migrations';

export class NotifyAfterCommit extends Migration {
  override up(): void {
    this.addSql('drop trigger if exists "record_change_notify" on "record_change"');
    this.addSql('drop function if exists "record_change_record_change_notify_fn"()');
  }

  override down(): void {
    this.addSql(`create function "record_change_record_change_notify_fn"() returns trigger as $$ begin perform ` +
      `pg_notify('record_change', ''); return null; end; $$ language plpgsql`);
    this.addSql(
      'create trigger "record_change_notify" after insert on "record_change" for each statement execute function ' +
      '"record_change_record_change_notify_fn"()');
  }
}

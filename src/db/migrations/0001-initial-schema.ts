// The initial schema: four tables, trigram indexes for query by example, and the IANA time zones.
import { Migration } from '@mikro-orm/migrations';
import timeZones from './iana-time-zones.json' with { type: 'json' };

export class InitialSchema extends Migration {
  override up(): void {
    // pg_trgm lets ILIKE '%text%' use a GIN index: query by example stays fast on millions of rows.
    this.addSql('create extension if not exists pg_trgm');
    this.addSql(`create table "timezone" (
      "timezone_id" bigserial primary key,
      "version" int not null default 0,
      "timezone_name" varchar(100) not null,
      constraint "timezone_timezone_name_unique" unique ("timezone_name"))`);
    this.addSql(`create table "vessel" (
      "vessel_id" bigserial primary key,
      "version" int not null default 0,
      "modified_at" timestamptz(3) null)`);
    this.addSql(`create table "vessel_name" (
      "translation_id" bigserial primary key,
      "vessel_id" bigint not null references "vessel" ("vessel_id") on update cascade on delete cascade,
      "language_key" varchar(35) not null,
      "text" varchar(200) not null,
      constraint "vessel_name_vessel_id_language_key_unique" unique ("vessel_id", "language_key"))`);
    this.addSql(`create table "sighting" (
      "sighting_id" bigserial primary key,
      "version" int not null default 0,
      "sighting_memo" varchar(4000) not null,
      "vessel_id" bigint not null references "vessel" ("vessel_id") on update cascade on delete restrict,
      "sighting_timezone" varchar(64) null,
      "sighting_date" timestamp(3) null,
      "creator" varchar(255) null)`);
    this.addSql('create index "sighting_vessel_id_index" on "sighting" ("vessel_id")');
    for (const [table, column] of [['timezone', 'timezone_name'], ['vessel_name', 'text'],
      ['sighting', 'sighting_memo'], ['sighting', 'sighting_timezone']] as const) {
      this.addSql(`create index "${table}_${column}_trgm" on "${table}" using gin ("${column}" gin_trgm_ops)`);
    }
    // Seeded zones get negative ids, so the ids users create (from the sequence, positive) never collide.
    const rows = timeZones.map((name, i) => `(${-(i + 1)}, '${name}')`).join(',\n');
    this.addSql(`insert into "timezone" ("timezone_id", "timezone_name") values ${rows}`);
  }

  override down(): void {
    this.addSql('drop table if exists "sighting", "vessel_name", "vessel", "timezone" cascade');
  }
}

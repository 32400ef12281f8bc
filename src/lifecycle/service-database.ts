// Opens the service's database (src/db/orm.ts) with what a schema change brings: every collection's records get their
// history.
import type { MikroORM } from '@mikro-orm/core';
import type { Config } from '../config/config.ts';
import { openDatabase, type DatabaseHooks } from '../db/orm.ts';
import { backfillHistory } from '../history/backfill.ts';
import { resources } from '../resources/index.ts';

export function openServiceDatabase(config: Config,
  hooks: Omit<DatabaseHooks, 'afterSchemaChange'>): Promise<MikroORM> {
  return openDatabase(config, { ...hooks, afterSchemaChange: (em) => backfillHistory(em, resources) });
}

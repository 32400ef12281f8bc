// Writes a unit of work atomically: one row is one statement, atomic by itself; several rows share a transaction.
import { ReferenceKind, type EntityManager, type EntityName } from '@mikro-orm/core';

/**
 * A record that owns a collection (a vessel's names) may change several rows in one write; any other record is one
 * row. Implicit transactions are off (src/db/orm.ts): around a single statement they only add BEGIN and COMMIT,
 * two more round trips that cost a create more time than its INSERT.
 */
export function writesSeveralRows(em: EntityManager, entity: EntityName<object>): boolean {
  return em.getMetadata().get(entity).relations.some((relation) => relation.kind === ReferenceKind.ONE_TO_MANY || relation.kind === ReferenceKind.MANY_TO_MANY);
}

export async function flushAtomically(em: EntityManager, severalRows: boolean): Promise<void> {
  if (!severalRows) return em.flush();
  await em.begin();
  try {
    // Flushes, then commits.
    await em.commit();
  } catch (error) {
    await em.rollback();
    throw error;
  }
}

// The demo records of the contract (vessels -1 and -2, sighting -1), added once to an empty database.
import type { EntityManager } from '@mikro-orm/core';
import { Vessel } from './entities/vessel.entity.ts';
import { Translation } from './entities/translation.entity.ts';
import { Sighting } from './entities/sighting.entity.ts';

/** Whether it seeded (the database had no demo records). */
export async function seedDemoData(em: EntityManager): Promise<boolean> {
  if (await em.count(Vessel, { vesselId: -1 })) return false;
  // One transaction: all of them or none, so a failed seed is retried by the next start.
  await em.transactional(async (tx) => {
    const warbird = tx.create(Vessel, { vesselId: -1 });
    tx.create(Translation, { vessel: warbird, languageKey: 'en', text: 'Klingon Warbird' });
    tx.create(Translation, { vessel: warbird, languageKey: 'de', text: 'Klingonischer Jäger' });
    const shuttle = tx.create(Vessel, { vesselId: -2 });
    tx.create(Translation, { vessel: shuttle, languageKey: 'en', text: 'Space Shuttle' });
    tx.create(Translation, { vessel: shuttle, languageKey: 'de', text: 'Space Shuttle' });
    tx.create(Sighting, { sightingId: -1, sightingMemo: 'unheimlich!', vessel: warbird });
  });
  return true;
}

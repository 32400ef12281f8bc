// The demo records of the contract (vessels -1 and -2, sighting -1), added once to an empty database.
import type { EntityManager } from '@mikro-orm/core';
import { flushAtomically } from './atomic-flush.ts';
import { Vessel } from './entities/vessel.entity.ts';
import { Translation } from './entities/translation.entity.ts';
import { Sighting } from './entities/sighting.entity.ts';

export async function seedDemoData(em: EntityManager): Promise<void> {
  if (await em.count(Vessel, { vesselId: -1 })) return;
  const warbird = em.create(Vessel, { vesselId: -1 });
  em.create(Translation, { vessel: warbird, languageKey: 'en', text: 'Klingon Warbird' });
  em.create(Translation, { vessel: warbird, languageKey: 'de', text: 'Klingonischer Jäger' });
  const shuttle = em.create(Vessel, { vesselId: -2 });
  em.create(Translation, { vessel: shuttle, languageKey: 'en', text: 'Space Shuttle' });
  em.create(Translation, { vessel: shuttle, languageKey: 'de', text: 'Space Shuttle' });
  em.create(Sighting, { sightingId: -1, sightingMemo: 'unheimlich!', vessel: warbird });
  await flushAtomically(em, true);
}

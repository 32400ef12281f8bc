// GET /vessel/{id}/observers: who else sighted this vessel, in numbers only
// (docs/behaviour.md#who-else-sighted-a-vessel), never a name or a subject.
import type { Request, Response } from 'express';
import type { Principal } from '../auth/access-rules.ts';
import { pathNumber } from '../crud/operations.ts';
import { statementManager } from '../db/request-context.ts';
import { entityNotFound } from '../errors/refusals.ts';
import { sendDocument } from '../http/send.ts';

// One statement: the vessel (none: 404), its sightings, the distinct creators among them and the caller's own.
const counts = `select count("s"."sighting_id") as "sightings", count(distinct "s"."creator") as "observers",
  count("s"."sighting_id") filter (where "s"."creator" = ?) as "mine"
  from "vessel" as "v" left join "sighting" as "s" on "s"."vessel_id" = "v"."vessel_id"
  where "v"."vessel_id" = ? group by "v"."vessel_id"`;

export async function vesselObservers(req: Request, res: Response): Promise<void> {
  const subject = (res.locals.principal as Principal).subject;
  const row = await statementManager(req).getConnection('read').execute(counts, [subject, pathNumber(req, 'id')],
    'get') as Record<string, string | number> | undefined;
  if (!row) throw entityNotFound();
  await sendDocument(res, 200, 'observers', { sightings: Number(row.sightings), observers: Number(row.observers),
    mine: Number(row.mine) });
}

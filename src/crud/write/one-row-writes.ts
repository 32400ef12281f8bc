// The writes of a record that is one row of its table: each a conditional statement with its history entry
// (src/crud/write/row-writes.ts), no entity made; when it matches nothing, the row's state says why.
import type { Request, Response } from 'express';
import type { EntityData } from '@mikro-orm/core';
import type { ResourceDescriptor, WireRecord } from '../resource-descriptor.ts';
import { readOwnedRow } from '../view-rows.ts';
import { etagOf, ifMatchVersions } from '../preconditions.ts';
import { checkState, refuseWrite } from './write-refusal.ts';
import { staleVersion } from '../../errors/refusals.ts';
import { mergePatch } from './merge-patch.ts';
import { checkAsRequestBody } from '../../validation/schema-check.ts';
import { reachesOwnRecordsOnly } from '../../auth/access-rules.ts';
import { requestLocale } from '../../i18n/request-locale.ts';
import { sendWritten } from '../representation-preference.ts';
import { statementManager } from '../../db/request-context.ts';
import { createWithHistory, deleteWithHistory, replaceWithHistory, rowState, type Writer } from './row-writes.ts';
import { pathId, principalOf, type Versioned } from '../request-parts.ts';
import { checkedReferences, writtenDetail } from './written-record.ts';

export function oneRowWrites<E extends Versioned>(resource: ResourceDescriptor<E>) {
  const { owner } = resource;

  /**
   * Who writes: the entry's author, and the owner a record must have when only its owner (or an admin) may change it.
   */
  function writerOf(res: Response): Writer {
    const principal = principalOf(res);
    return owner && reachesOwnRecordsOnly(res) ? { changedBy: principal.username, owner: principal.subject }
      : { changedBy: principal.username };
  }

  /** The row replaced by `body` where it still has `version`: its version after, or undefined when none matched. */
  async function replace(req: Request, res: Response, body: WireRecord, version: number): Promise<number | undefined> {
    return checkedReferences(resource, replaceWithHistory(statementManager(req), resource, resource.values(body),
      pathId(req), version, writerOf(res)));
  }

  /** A conditional write matched nothing: the row's state says why (404, 403, 412 or 409). */
  async function refusal(req: Request, res: Response): Promise<never> {
    refuseWrite(await rowState(statementManager(req), resource, pathId(req)), req, res, owner !== undefined);
  }

  const answerReplaced = async (req: Request, res: Response, version: number | undefined) => {
    res.setHeader('ETag', etagOf(version ?? await refusal(req, res)));
    await sendWritten(req, res, 204, resource.name, () => writtenDetail(req, resource, pathId(req)));
  };

  return {
    async create(req: Request, res: Response, data: EntityData<E>): Promise<{ id: number; version: number }> {
      return checkedReferences(resource,
        createWithHistory(statementManager(req), resource, data, principalOf(res).username));
    },

    async update(req: Request, res: Response, body: WireRecord & Versioned): Promise<void> {
      // `If-Match` naming another version than the body's: no write can match; what is stale is told by the refusal.
      const admitted = ifMatchVersions(req);
      const matchable = !admitted || admitted.includes(body.version);
      await answerReplaced(req, res, matchable ? await replace(req, res, body, body.version) : undefined);
    },

    /**
     * Two round trips: the merge needs the record as it is (RFC 7396), and the merged record must pass the
     * replacement's schema before anything is written; then the same conditional write as PUT's.
     */
    async patch(req: Request, res: Response, patch: WireRecord & Partial<Versioned>): Promise<void> {
      const row = await readOwnedRow(statementManager(req), resource, pathId(req));
      checkState(row && { version: row.version as number, owner: row.__owner as string | null }, req, res,
        owner !== undefined);
      const merged = mergePatch(resource.detailView(row!, requestLocale(req)), patch) as WireRecord & Versioned;
      checkAsRequestBody(`/${resource.name}/{id}`, 'put', merged);
      if (merged.version !== row!.version) throw staleVersion();
      await answerReplaced(req, res, await replace(req, res, merged, merged.version));
    },

    async remove(req: Request, res: Response): Promise<void> {
      const em = statementManager(req);
      const id = pathId(req);
      const admitted = ifMatchVersions(req);
      // One version named: the delete states it. Several (or none that is a version): the row's is read and checked
      // first.
      const version = admitted === undefined || admitted.length === 1 ? admitted?.[0]
        : checkState(await rowState(em, resource, id), req, res, owner !== undefined).version;
      if (!await deleteWithHistory(em, resource, id, version, writerOf(res))) await refusal(req, res);
      res.status(204).end();
    },
  };
}

// The five operations of the design floor's table (docs/benchmarks.md): a read by id, a page, a rare word's query by
// example, a replacement stating its version (each connection on a sighting of its own, 1 to 16) and a create.
import type { LoadRequest } from './load.ts';

/** The word the seeded data holds in one memo of 100 000 (bench/seed.ts). */
export const rareWord = 'needle';

export const createBody = JSON.stringify({ sightingMemo: 'benchmark', vessel: { vesselId: -1 },
  sightingTimezone: 'Europe/Berlin', sightingDate: '2026-11-22T21:30' });

const replacement = JSON.stringify({ sightingMemo: 'replaced [<id>]', vessel: { vesselId: -2 },
  sightingTimezone: 'Asia/Tokyo', sightingDate: '2026-11-22T21:30' });

export const fiveOperations: [string, LoadRequest][] = [
  ['GET /sighting/-1 c16', { method: 'GET', path: '/api/sighting/-1', connections: 16 }],
  ['GET /sighting?limit=50 c16', { method: 'GET', path: '/api/sighting?limit=50', connections: 16 }],
  ['POST /sighting/qbe rare c4', { method: 'POST', path: '/api/sighting/qbe',
    body: JSON.stringify({ sightingMemo: rareWord }), connections: 4 }],
  ['PUT /sighting/{n} c16', { method: 'PUT', path: '/api/sighting/{n}', body: replacement, connections: 16 }],
  ['POST /sighting c16', { method: 'POST', path: '/api/sighting', body: createBody, connections: 16 }],
];

/** Who makes an operation's requests: the replacements change seeded sightings (1 to 16), an administrator's. */
export const userOf = (request: LoadRequest): string => (request.method === 'PUT' ? 'admin' : 'alice');

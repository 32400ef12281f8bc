// Test data: factories with overrides, and helpers that create records through the API and give back their ids.
import { randomUUID } from 'node:crypto';
import type { components } from '../../generated/openapi.ts';
import type { TestService } from './service.ts';
import { apiClient } from './api-client.ts';
import type { User } from './tokens.ts';

type Schemas = components['schemas'];
export type SightingCreate = Schemas['SightingCreate'];
export type VesselCreate = Schemas['VesselCreate'];
export type TimezoneCreate = Schemas['TimezoneCreate'];

/** A text no other test (or earlier run on the same database) uses, for records a test must find again. */
export const unique = (prefix: string): string => `${prefix} ${randomUUID()}`;

/** A sighting of the demo vessel −1 with a unique memo. */
export function buildSighting(overrides: Partial<SightingCreate> = {}): SightingCreate {
  return { sightingMemo: unique('memo'), vessel: { vesselId: -1 }, ...overrides };
}

export function buildVessel(overrides: Partial<VesselCreate> = {}): VesselCreate {
  const name = unique('vessel');
  return { vesselName: { en: name, de: `${name} (de)` }, ...overrides };
}

export function buildTimezone(overrides: Partial<TimezoneCreate> = {}): TimezoneCreate {
  return { timezoneName: unique('Test/Zone'), ...overrides };
}

/** The id at the end of a `Location` header (collection path + `/` + id). */
export function idFromLocation(location: string | null): number {
  const id = Number(/\/(-?\d+)$/.exec(location ?? '')?.[1]);
  if (!Number.isSafeInteger(id)) throw new Error(`no id in Location ${location}`);
  return id;
}

async function created(response: Response): Promise<number> {
  if (response.status !== 201) throw new Error(`create failed: ${response.status} ${await response.text()}`);
  return idFromLocation(response.headers.get('location'));
}

/** Creates a sighting (default user alice, a writer) and returns its id. */
export async function createSighting(service: TestService, body: SightingCreate = buildSighting(),
  user: User = 'alice'): Promise<number> {
  const api = await apiClient(service, { user });
  return created((await api.POST('/sighting', { body })).response);
}

/** Creates a vessel as admin and returns its id. */
export async function createVessel(service: TestService, body: VesselCreate = buildVessel()): Promise<number> {
  const api = await apiClient(service, { user: 'admin' });
  return created((await api.POST('/vessel', { body })).response);
}

/** Creates a time zone as admin and returns its id. */
export async function createTimezone(service: TestService, body: TimezoneCreate = buildTimezone()): Promise<number> {
  const api = await apiClient(service, { user: 'admin' });
  return created((await api.POST('/timezone', { body })).response);
}

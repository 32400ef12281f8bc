// The collections the service offers; adding one is a descriptor here, its entity, and openapi.yaml.
import { timezoneResource } from './timezone.resource.ts';
import { vesselResource } from './vessel.resource.ts';
import { sightingResource } from './sighting.resource.ts';

export const resources = [timezoneResource, vesselResource, sightingResource] as const;

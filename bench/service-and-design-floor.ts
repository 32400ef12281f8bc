// The service and the design floor (bench/design-floor.ts) on one prepared database, both on core 0, as the benches
// that put the two side by side start them.
import type { BenchDatabase } from './seed.ts';
import { startServer, type ServerProcess } from './processes.ts';

export interface ServiceAndDesignFloor {
  service: ServerProcess;
  designFloor: ServerProcess;
  /** The realm both accept tokens of: KEYCLOAK_URL's, or the service's own (its embedded issuer). */
  issuer: string;
}

/** `env` adds to each server's settings and `launcher` runs each (by its name); `nodeFlags` go to both. */
export async function startServiceAndDesignFloor(db: BenchDatabase, options: {
  env?: { service?: Record<string, string>; designFloor?: Record<string, string> };
  launcher?: { service?: readonly string[]; designFloor?: readonly string[] };
  nodeFlags?: readonly string[];
} = {}): Promise<ServiceAndDesignFloor> {
  const common = { PORT: '0', HOST: '127.0.0.1', KEYCLOAK_URL: process.env.KEYCLOAK_URL };
  const service = await startServer('service', 'src/server.ts',
    { ...common, ...db.serviceEnv, DEMO_DATA: 'false', ...options.env?.service }, '0', options.nodeFlags,
    options.launcher?.service);
  const issuer = `${process.env.KEYCLOAK_URL?.replace(/\/$/, '') ?? service.url}/realms/sighting`;
  const designFloor = await startServer('design floor', 'bench/floor-server.ts', { ...common, ...db.designFloorEnv,
    ISSUER: issuer, AUDIENCE: 'sighting-api', FLOOR_DESIGN: 'true', ...options.env?.designFloor }, '0',
  options.nodeFlags, options.launcher?.designFloor);
  return { service, designFloor, issuer };
}

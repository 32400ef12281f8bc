// Runs the real service in-process on an ephemeral port: PGlite, or a scratch PostgreSQL database when DATABASE_URL is
// set.
import { loadConfig } from '../../src/config/config.ts';
import { startWebServer, stopWebServer, type StartOptions, type WebServer } from '../../src/lifecycle/web-server.ts';
import { makeScratchDatabase } from './scratch-database.ts';
import { contractProxyEnabled, startContractProxy, type ContractProxy } from './contract-proxy.ts';
import { refuseOwnDatabase } from './own-databases.ts';
import { forgetTokensOf } from './tokens.ts';

export interface TestService {
  /** The service's origin, e.g. http://127.0.0.1:41234. */
  url: string;
  /** The collections' base URL, e.g. http://127.0.0.1:41234/api. */
  api: string;
  /** The realm's issuer URL tokens come from: Keycloak's when KEYCLOAK_URL is set, else the embedded provider's. */
  realm: string;
  web: WebServer;
  /** Prism in front of the service (the shared one only): the typed client's JSON traffic goes through it. */
  proxy?: ContractProxy;
  stop(): Promise<void>;
}

export const backend = process.env.DATABASE_URL ? 'postgresql' : 'pglite';

/** `env` overrides settings; `DATABASE_URL: ''` style overrides are not needed: pass what differs. */
export async function startService(env: Record<string, string | undefined> = {},
  options: StartOptions = {}): Promise<TestService> {
  refuseOwnDatabase('startService');
  return startServiceOnRunDatabase(env, options);
}

async function startServiceOnRunDatabase(env: Record<string, string | undefined>,
  options: StartOptions): Promise<TestService> {
  const scratch = process.env.DATABASE_URL && !('DATABASE_URL' in env) && !('DATABASE_DIRECT_URL' in env)
    && !('DATABASE_MIGRATION_URL' in env) ? await makeScratchDatabase(process.env.DATABASE_URL) : undefined;
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    KEYCLOAK_URL: process.env.KEYCLOAK_URL,
    DATABASE_URL: scratch?.url,
    DATABASE_DIRECT_URL: scratch?.env.DATABASE_DIRECT_URL,
    DATABASE_MIGRATION_URL: scratch?.env.DATABASE_MIGRATION_URL,
    // The same demo records on both backends, so tests can rely on them.
    DEMO_DATA: 'true',
    // Test output stays readable: only warnings and errors, unless LOG_LEVEL says otherwise.
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    ...env,
  });
  const web = await startWebServer(config, options);
  const realmBase = config.KEYCLOAK_URL?.replace(/\/$/, '') ?? web.url;
  return {
    url: web.url,
    api: `${web.url}${config.BASE_PATH}`,
    realm: `${realmBase}/realms/${config.KEYCLOAK_REALM}`,
    web,
    async stop() {
      await stopWebServer(web);
      forgetTokensOf(web.url);
      await scratch?.drop();
    },
  };
}

let shared: Promise<TestService> | undefined;

/**
 * Bounds of the shared service's waits for a connection (and of services of their own that need them): a new
 * one through PgBouncer (TLS and SCRAM twice) took longer than the default 3 s once on CI's loaded machine, and the
 * test saw a 503. What those bounds do is tested by services of their own (test/api/database-partition.test.ts,
 * test/ops/pool-metrics.test.ts).
 */
export const connectionWaitBounds = { DB_CONNECT_TIMEOUT_MS: '15000', DB_ACQUIRE_TIMEOUT_MS: '15000' };

/** One service for the whole run, behind the contract proxy; tests that need a service of their own start one. */
export function sharedService(): Promise<TestService> {
  shared ??= startServiceOnRunDatabase(connectionWaitBounds, {}).then(async (service) => {
    if (!contractProxyEnabled) return service;
    const proxy = await startContractProxy(service.api).catch(async (error: unknown) => {
      await service.stop();
      throw error;
    });
    return { ...service, proxy, stop: async () => { await proxy.close(); await service.stop(); } };
  });
  return shared;
}

export async function stopSharedService(): Promise<void> {
  if (shared) await (await shared).stop();
  shared = undefined;
}

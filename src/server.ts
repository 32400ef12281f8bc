// Entry point: start the service from the environment, stop it gracefully on SIGTERM or SIGINT.
import { loadConfig } from './config.ts';
import { startWebServer, stopWebServer } from './web-server.ts';
import { tokenAssignment } from './dev-provider/index.ts';

const config = loadConfig();
const web = await startWebServer(config);
const database = config.DATABASE_URL ? `PostgreSQL${config.DATABASE_REPLICA_URLS.length ? ` with ${config.DATABASE_REPLICA_URLS.length} read replica(s)` : ''}` : 'embedded PGlite';
web.logger.info({ url: `${web.url}${config.BASE_PATH}`, database, page: `${web.url}/`, docs: `${web.url}/docs` }, `sighting registry listening on ${web.url}${config.BASE_PATH} (${database}); web page at ${web.url}/, contract at ${web.url}/docs`);
if (!config.KEYCLOAK_URL) {
  const assignment = tokenAssignment({ issuer: `${web.url}/realms/${config.KEYCLOAK_REALM}` });
  web.logger.info({ assignment }, `embedded OpenID provider (development only). Set TOKEN to a token of alice's with:\n${assignment}`);
}

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, async () => {
    web.logger.info(`${signal}: finishing in-flight requests`);
    const { cut } = await stopWebServer(web);
    web.logger.info({ cut }, `${signal}: stopped; ${cut} request${cut === 1 ? ' was' : 's were'} cut at the ${config.SHUTDOWN_TIMEOUT_MS} ms timeout`);
    process.exit(0);
  });
}

// Entry point: start the service from the environment, stop it gracefully on SIGTERM or SIGINT.
import { loadConfig } from './config.ts';
import { startWebServer, stopWebServer } from './web-server.ts';
import { passwordGrantCurl } from './auth/embedded-provider/index.ts';

const config = loadConfig();
const web = await startWebServer(config);
console.log(`sighting registry listening on ${web.url}${config.BASE_PATH} (${config.DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite'}); web page at ${web.url}/, contract at ${web.url}/docs`);
if (!config.KEYCLOAK_URL) {
  console.log(`embedded OpenID provider (development only). Get a token with:\n  ${passwordGrantCurl({ issuer: `${web.url}/realms/${config.KEYCLOAK_REALM}` })}`);
}

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, async () => {
    console.log(`${signal}: finishing in-flight requests`);
    await stopWebServer(web);
    process.exit(0);
  });
}

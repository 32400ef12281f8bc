// The service as a process: start it from the environment, stop it gracefully on SIGTERM (orchestrators) or SIGINT
// (Ctrl-C).
import { loadConfig } from '../config/config.ts';
import { startWebServer, stopWebServer, type WebServer } from './web-server.ts';
import { tokenAssignment } from '../dev-provider/index.ts';
import { failedStart } from './start-up-failure.ts';
import { stopTelemetry } from '../observability/telemetry.ts';

// A stop asked for while the start is under way (waiting for another's migration lock, say) ends it with one line.
const stopDuringStart = (signal: NodeJS.Signals) => {
  const msg = `${signal} during start: stopped before the service was ready`;
  const line = { level: 30, time: Date.now(), service: 'sighting-registry', signal, msg };
  process.stdout.write(`${JSON.stringify(line)}\n`);
  process.exit(0);
};
process.once('SIGTERM', stopDuringStart).once('SIGINT', stopDuringStart);
let web: WebServer;
try {
  const config = loadConfig();
  web = await startWebServer(config);
} catch (error) {
  failedStart(error);
}
process.off('SIGTERM', stopDuringStart).off('SIGINT', stopDuringStart);
const { config, logger } = web;
const replicas = config.DATABASE_REPLICA_URLS.length;
const database = config.DATABASE_URL ? `PostgreSQL${replicas ? ` with ${replicas} read replica(s)` : ''}`
  : 'embedded PGlite';
const management = web.management ? `; health and metrics at ${web.management.url}` : '';
logger.info({ url: `${web.url}${config.BASE_PATH}`, database, page: `${web.url}/`, docs: `${web.url}/docs`,
  management: web.management?.url }, `sighting registry listening on ${web.url}${config.BASE_PATH} (${database}); ` +
  `web page at ${web.url}/, contract at ${web.url}/docs${management}`);
if (!config.KEYCLOAK_URL) {
  const assignment = tokenAssignment({ issuer: `${web.url}/realms/${config.KEYCLOAK_REALM}` });
  logger.info({ assignment },
    `embedded OpenID provider (development only). Set TOKEN to a token of alice's with:\n${assignment}`);
}

// SIGTERM is an orchestrator's stop: balancers get SHUTDOWN_DELAY_MS to notice the 503 readiness. Ctrl-C stops at once.
const delays = { SIGTERM: config.SHUTDOWN_DELAY_MS, SIGINT: 0 } as const;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, async () => {
    logger.info({ signal, delayMs: delays[signal] },
      `${signal}: readiness now 503; accepting for ${delays[signal]} ms more, then finishing in-flight requests`);
    const { cut } = await stopWebServer(web, { delayMs: delays[signal] });
    logger.info({ cut }, `${signal}: stopped; ${cut} request${cut === 1 ? ' was' : 's were'} cut at the ` +
      `${config.SHUTDOWN_TIMEOUT_MS} ms timeout`);
    await stopTelemetry();
    process.exit(0);
  });
}

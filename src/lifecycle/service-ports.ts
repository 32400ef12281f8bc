// The service's ports, open before its database: until the application is mounted on them, they say it is starting.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Config } from '../config/config.ts';
import { answerClientError, answerConnect } from '../http/client-errors.ts';
import { answerStarting } from '../http/starting.ts';
import { answerStopping } from '../http/stopping.ts';
import { drainable, type Drain } from '../http/drain.ts';

type Answer = (req: IncomingMessage, res: ServerResponse) => void;

export interface ServicePorts {
  server: Server;
  /** The management port's server, when MANAGEMENT_PORT is set. */
  management?: Server;
  drain: Drain;
  /** From now on the ports answer with the application, and the management port with its own. */
  mount(answer: Answer, answerManagement: Answer | undefined): void;
  /** Closes the ports that listen (a service that cannot start leaves nothing open behind it). */
  close(): Promise<void>;
}

/**
 * Listens on PORT and, when set, MANAGEMENT_PORT. A process that waits for another's migration lock (up to
 * MIGRATE_LOCK_TIMEOUT_MS) is then alive and says it is starting.
 */
export async function openPorts(config: Config): Promise<ServicePorts> {
  const server = serviceServer(config);
  // Node checks the slow-client bounds in a timer, and a loop turn runs its timers before it reads its sockets: while
  // the start holds the event loop (seconds on PGlite, more than HEADERS_TIMEOUT_MS on a machine whose cores are busy),
  // a request sent in time would wait unread and be refused as slow (408). The bounds hold again from the turn after
  // the mount, once what waits has been read; a connection's time still counts from its start.
  const bounds = { headersTimeout: server.headersTimeout, requestTimeout: server.requestTimeout };
  Object.assign(server, { headersTimeout: 0, requestTimeout: 0 });
  const drain = drainable(server, answerStopping);
  let answer: Answer = answerStarting({ health: config.MANAGEMENT_PORT === undefined });
  server.on('request', (req, res) => (drain.overdue() ? answerStopping : answer)(req, res));
  let answerManagement: Answer = answerStarting({ health: true });
  const management = config.MANAGEMENT_PORT === undefined ? undefined
    : createServer((req, res) => answerManagement(req, res));
  const close = async () => {
    for (const open of [server, management]) if (open?.listening) await new Promise((resolve) => open.close(resolve));
  };
  try {
    await listen(server, config.PORT, config.HOST);
    if (management) await listen(management, config.MANAGEMENT_PORT!, config.HOST);
  } catch (error) {
    await close();
    throw error;
  }
  const mount = (application: Answer, managementApplication: Answer | undefined) => {
    if (managementApplication) answerManagement = managementApplication;
    answer = application;
    setImmediate(() => Object.assign(server, bounds));
  };
  return { server, management, drain, mount, close };
}

/** The service port's server, bounded against slow clients and answering the requests node refuses itself. */
function serviceServer(config: Config): Server {
  const server = createServer({
    maxHeaderSize: config.HEADER_LIMIT,
    // A client that sends its header or its request slowly (slowloris) holds a connection only this long, then gets
    // a 408. Node checks the bounds every `connectionsCheckingInterval` (30 s by default, which held them 40 s).
    headersTimeout: config.HEADERS_TIMEOUT_MS,
    requestTimeout: config.REQUEST_TIMEOUT_MS,
    connectionsCheckingInterval: Math.min(1000, config.HEADERS_TIMEOUT_MS),
  });
  server.on('clientError', answerClientError);
  server.on('connect', answerConnect);
  // A client that half-closes after its request (shutdown(SHUT_WR)) still gets its answer; node's default aborts
  // the request at the client's FIN, so any handler slower than that FIN would answer no one.
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  return server;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, () => {
    server.off('error', reject);
    resolve();
  }));
}

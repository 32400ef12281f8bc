// The test process's clients (fetch, node:http) open a connection for each request: none is kept alive across a stall.
import http from 'node:http';
import { Agent, setGlobalDispatcher } from 'undici';

/**
 * The services under test run in this process, so anything that holds its event loop (PGlite's statements, a busy
 * machine) holds theirs and their clients' timers at once. A kept-alive connection idle across such a stall may be
 * closed by the server as idle (5 s) in the same turn of the loop that the client, whose own idle timer has not run
 * either, writes its next request on: the request is reset (ECONNRESET). A shorter client keep-alive only narrows the
 * window, since its timer is held too; a retry would cover idempotent requests only, and would hide resets the service
 * makes itself. Without reuse the race cannot arise, and a connection over loopback costs well under a millisecond.
 * Tests of keep-alive itself (shutdown-under-load) use an agent of their own. `pipelining: 0` is undici's switch for
 * "no keep-alive": each request says `Connection: close`; Prism (contract-proxy.ts) forwards that header, so its
 * forwards to the shared service open a connection each too.
 */
export function openConnectionPerRequest(): void {
  setGlobalDispatcher(new Agent({ pipelining: 0 }));
  // node:http's default agent keeps connections alive since Node 19: the same race for tests that use it directly.
  http.globalAgent = new http.Agent({ keepAlive: false });
}

// Prism in proxy mode with --errors in front of a test service: a second, independent reader of openapi.yaml checks the
// typed client's JSON traffic.
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from './free-port.ts';
import { operationFor } from './contract-paths.ts';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const prismBin = `${root}node_modules/@stoplight/prism-cli/dist/index.js`;
/** Every answer Prism makes itself (rather than forwards) is a problem document of this type family. */
const PRISM_ERRORS = 'https://stoplight.io/prism/errors#';

export interface ContractProxy {
  /** Prism's origin; it serves the paths of openapi.yaml at its root and forwards to the service's base path. */
  url: string;
  close(): Promise<void>;
}

/** Whether the contract proxy is on: `CONTRACT_PROXY=off` runs the typed client straight to the service. */
export const contractProxyEnabled = process.env.CONTRACT_PROXY !== 'off';

/**
 * Starts Prism in front of `upstreamApi`. With `errors` (the default) a request or answer that breaks the contract is
 * refused with Prism's problem document; without, everything is forwarded and Prism lists what it found in each
 * answer's `sl-violations` header (warnings too, such as a deprecated parameter, which --errors also refuses).
 */
export async function startContractProxy(upstreamApi: string, { errors = true } = {}): Promise<ContractProxy> {
  const port = await freePort();
  const prism: ChildProcess = spawn(process.execPath, [prismBin, 'proxy', `${root}openapi.yaml`, upstreamApi,
    ...errors ? ['--errors'] : [], '--host', '127.0.0.1', '--port', String(port)],
  { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Prism did not start within 90 s:\n${log}`)), 90_000);
    const onOutput = (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-20_000);
      if (log.includes('Prism is listening')) { clearTimeout(timer); resolve(); }
    };
    prism.stdout!.on('data', onOutput);
    prism.stderr!.on('data', onOutput);
    prism.once('exit', (code) => { clearTimeout(timer); reject(new Error(`Prism exited with ${code}:\n${log}`)); });
  });
  // Keep draining its per-request log, so a full pipe never stalls it.
  prism.stdout!.resume();
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => {
      if (prism.exitCode !== null) return resolve();
      prism.once('exit', () => resolve());
      prism.kill('SIGTERM');
    }),
  };
}

/**
 * Which requests of the typed client go through Prism: the JSON ones (Prism cannot read XML), creates included, except
 * those the contract answers as another operation than their method and path name (`view=detail` on a list, answered
 * as its `…InDetailView` operation): Prism reads only the method and path, so contract.ts checks those.
 */
export function passesContractProxy(request: Request, api: string): boolean {
  const url = new URL(request.url);
  const path = url.pathname.slice(new URL(api).pathname.length);
  const view = url.searchParams.get('view');
  const answeredAsOther = view !== null
    && operationFor(request.method, path)?.['x-view-operations']?.[view] !== undefined;
  return !answeredAsOther && !/xml/i.test(`${request.headers.get('content-type')} ${request.headers.get('accept')}`);
}

interface PrismProblem { type: string; title?: string; detail?: string;
  validation?: { location: string[]; severity: string; message: string }[] }

/**
 * Sends `request` (addressed to the service's base URL `api`) through Prism. Prism forwards what the contract
 * allows and checks the answer: an answer that breaks the contract throws. A request Prism refuses itself never
 * reached the service; it goes to the service directly, which must refuse it too (4xx), so negative tests keep
 * their answer and Prism and the service are held to the same contract.
 */
export async function throughContractProxy(proxy: ContractProxy, api: string, request: Request): Promise<Response> {
  const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
  const init = { method: request.method, headers: request.headers, body, redirect: 'manual' as const };
  const path = request.url.slice(api.length);
  const answer = await fetch(`${proxy.url}${path}`, init);
  const problem = await prismProblem(answer);
  if (!problem) return withoutProxyHeaders(answer);
  const where = `${request.method} ${path}`;
  const reasons = JSON.stringify(problem.validation ?? problem.detail);
  if (problem.validation?.some((v) => v.location[0] === 'response')) {
    throw new Error(`Prism: the answer to ${where} breaks openapi.yaml: ${reasons}`);
  }
  const direct = await fetch(request.url, init);
  if (direct.status < 400 || direct.status >= 500) {
    throw new Error(`Prism refused ${where} (${problem.title}: ${reasons}), but the service answered ${direct.status}`);
  }
  return direct;
}

async function prismProblem(response: Response): Promise<PrismProblem | undefined> {
  if (response.headers.get('content-type') !== 'application/problem+json') return undefined;
  const problem = await response.clone().json() as PrismProblem;
  return typeof problem.type === 'string' && problem.type.startsWith(PRISM_ERRORS) ? problem : undefined;
}

/** Prism adds permissive CORS headers to every answer; the service's own answer has none of them. */
function withoutProxyHeaders(response: Response): Response {
  const headers = new Headers(response.headers);
  for (const name of [...headers.keys()]) if (name.startsWith('access-control-')) headers.delete(name);
  const body = [101, 204, 205, 304].includes(response.status) ? null : response.body;
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

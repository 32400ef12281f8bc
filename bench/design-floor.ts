// The design floor: the floor's handlers (bench/floor-server.ts, reading with the service's own statements:
// bench/floor-sql.ts `designReads`) behind what the service's design puts in every request's path and nothing else:
// express 5, a JSON body parser, one lookup of the contract's path, and express-openapi-validator over the same
// openapi.yaml with the service's own options (src/validation/request-validator.ts). What the service spends beyond
// it is its own (docs/benchmarks.md, the design floor).
import express, { type Request, type Response } from 'express';
import { openApiDocument, type Operation } from '../src/contract/document.ts';
import { pathTable } from '../src/contract/path-table.ts';
import { resolveTo, type ResolvedOperation } from '../src/contract/resolution.ts';
import { requestValidator } from '../src/validation/request-validator.ts';

type Method = ResolvedOperation['method'];
const methods: readonly Method[] = ['get', 'post', 'put', 'patch', 'delete'];
const basePath = '/api';

/** Every operation of the contract, as the lookup hands it to the validator. */
function operations(): Map<string, ResolvedOperation> {
  const table = new Map<string, ResolvedOperation>();
  for (const [template, item] of Object.entries(openApiDocument.paths as Record<string, Record<string, unknown>>)) {
    for (const method of methods) {
      const contract = item[method] as Operation | undefined;
      if (!contract) continue;
      table.set(`${method} ${template}`, { method, template, contract, roles: [], ownRecordsOnly: [], integerQuery: [],
        streams: method === 'get' && template.endsWith('/events') });
    }
  }
  return table;
}

export function designFloor(handle: (req: Request, res: Response) => Promise<void>): express.Express {
  const byKey = operations();
  const lookup = pathTable(new Set([...byKey.values()].map((operation) => operation.template)));
  const app = express();
  app.disable('x-powered-by');
  app.use(express.json({ type: ['application/json', 'application/merge-patch+json'] }));
  app.use((req, res, next) => {
    const match = req.path.startsWith(basePath) ? lookup(req.path.slice(basePath.length)) : undefined;
    const operation = match && byKey.get(`${req.method.toLowerCase()} ${match.template}`);
    if (!operation) return void res.status(404).end();
    resolveTo(req, operation, match.params);
    next();
  });
  app.use(requestValidator(basePath));
  app.use((req, res, next) => { handle(req, res).catch(next); });
  // The validator's refusals: the floor's requests are all valid, so any is a mistake in the benchmark.
  app.use((error: { status?: number }, _req: Request, res: Response, _next: express.NextFunction) => {
    res.status(error.status ?? 500).end();
  });
  return app;
}

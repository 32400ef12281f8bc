// One small JSON answer for GET /api/x/{n}, from node:http alone or through express 5 with a router mounted on /api
// (ANSWER_WITH=express): what express's own machinery costs a request, before the service adds anything to it.
import { createServer, type RequestListener } from 'node:http';
import express from 'express';

const vessel = { version: 0, vesselId: -1, vesselName: 'Klingon Warbird' };
const body = JSON.stringify({ version: 0, sightingId: -1, sightingMemo: 'unheimlich!', vessel });
const type = { 'Content-Type': 'application/json; charset=utf-8' };

function expressAnswer(): RequestListener {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  const api = express.Router();
  app.use('/api', api);
  api.get('/x/:id', (_req, res) => void res.status(200).type('application/json; charset=utf-8').send(body));
  return app as unknown as RequestListener;
}

const nodeAnswer: RequestListener = (req, res) => {
  if (req.method === 'GET' && /^\/api\/x\/\d+$/.test(req.url ?? '')) res.writeHead(200, type).end(body);
  else res.writeHead(404).end();
};

const server = createServer(process.env.ANSWER_WITH === 'express' ? expressAnswer() : nodeAnswer);
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  console.log(`${process.env.ANSWER_WITH ?? 'node'} listening on http://127.0.0.1:${port}`);
});
process.once('SIGTERM', () => process.exit(0));

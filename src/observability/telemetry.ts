// OpenTelemetry traces (OTEL_* variables), started before the service's modules load; nothing at all when not
// configured.
import { register } from 'node:module';
import type { Request } from 'express';
import { loadConfig } from '../config/config.ts';
import { routeTemplate } from './route-template.ts';
import { statementShape } from './statement-shape.ts';
import { queryNames } from './query-names.ts';

type Environment = Record<string, string | undefined>;
let shutdown: () => Promise<void> = async () => {};

/**
 * The standard variables decide (OTEL_TRACES_EXPORTER, OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_SERVICE_NAME, …). The SDK
 * alone would export to localhost:4318 when nothing is set; here it starts only when an exporter or an endpoint is
 * named, so an instance that traces nowhere loads no SDK and pays nothing but @opentelemetry/api's no-op calls.
 */
export function tracingConfigured(env: Environment): boolean {
  if (env.OTEL_SDK_DISABLED === 'true' || env.OTEL_TRACES_EXPORTER === 'none') return false;
  return Boolean(env.OTEL_TRACES_EXPORTER || env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

export async function startTelemetry(env: Environment): Promise<void> {
  if (!tracingConfigured(env)) return;
  let basePath: string;
  try {
    basePath = loadConfig(env).BASE_PATH;
  } catch {
    // The service refuses this configuration at once, saying why; there is nothing to trace.
    return;
  }
  // ESM imports (express, pg through MikroORM) reach the instrumentations only through this loader hook. Only the
  // instrumented modules go through it: wrapping every module the service loads cost a start 2.5 s of CPU more.
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url,
    { data: { include: ['express', 'pg', 'http', 'node:http'] } });
  const [{ NodeSDK }, { HttpInstrumentation }, { ExpressInstrumentation, ExpressLayerType }, { PgInstrumentation }] =
    await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-express'),
    import('@opentelemetry/instrumentation-pg'),
  ]);
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? 'sighting-registry',
    instrumentations: [
      new HttpInstrumentation({
        // A server span is named by the contract's route template (`GET /api/sighting/{id}`), never by the raw path;
        // its `url.path` is the template and its `url.query` the parameters' names: ids and filter values (a memo
        // searched for) never leave the service (README, Tracing).
        applyCustomAttributesOnSpan(span, request) {
          if (!('originalUrl' in request)) return;
          const route = routeTemplate(request as Request, basePath);
          span.updateName(`${request.method} ${route}`);
          span.setAttribute('http.route', route);
          span.setAttribute('url.path', route);
          const query = (request as Request).originalUrl.split('?')[1];
          if (query !== undefined) span.setAttribute('url.query', queryNames(query));
        },
      }),
      // Routers and handlers, not every middleware: a request's tree stays readable.
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
      // The statement's text without its values (MikroORM sends them in the text); SQL outside a request is not traced.
      new PgInstrumentation({
        requireParentSpan: true,
        requestHook(span, { query }) { span.setAttribute('db.query.text', statementShape(query.text)); },
      }),
    ],
  });
  sdk.start();
  shutdown = () => sdk.shutdown();
}

/** Sends the spans still buffered; called on the way out. */
export function stopTelemetry(): Promise<void> {
  return shutdown().catch(() => {});
}

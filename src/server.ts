// Entry point: OpenTelemetry first, when an exporter is configured (its hooks must see express and pg load), then the service.
import { startTelemetry } from './observability/telemetry.ts';

await startTelemetry(process.env);
await import('./main.ts');

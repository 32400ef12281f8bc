// Entry point: the heap's tuning and the settings first (a bad one fails before anything else loads), then
// OpenTelemetry, when an exporter is configured (its hooks must see express and pg load), then the service.
import { tuneHeap } from './lifecycle/heap-tuning.ts';
import { checkedSettings } from './config/settings-gate.ts';

tuneHeap();
checkedSettings();
const { startTelemetry } = await import('./observability/telemetry.ts');
await startTelemetry(process.env);
await import('./lifecycle/main.ts');

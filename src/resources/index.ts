// The collections the service offers: the default export of every `*.resource.ts` in this folder, found, not listed.
import { globSync } from 'node:fs';
import type { AnyResource } from '../crud/resource-descriptor.ts';

const files = globSync('*.resource.ts', { cwd: import.meta.dirname }).sort();
export const resources =
  await Promise.all(files.map(async (file) => (await import(`./${file}`) as { default: AnyResource }).default));

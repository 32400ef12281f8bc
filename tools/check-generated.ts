// Fails when generated/openapi.ts is stale: regenerates it in memory and compares with the committed file.
import { readFileSync } from 'node:fs';
import openapiTS, { astToString } from 'openapi-typescript';

const committed = readFileSync(new URL('../generated/openapi.ts', import.meta.url), 'utf8');
const fresh = astToString(await openapiTS(new URL('../openapi.yaml', import.meta.url)));
// openapi-typescript's CLI adds a banner; compare the generated code only.
const body = (text: string) => text.slice(text.indexOf('export '));
if (body(committed).trim() !== body(fresh).trim()) {
  console.error('generated/openapi.ts is stale: run `npm run generate` and commit it.');
  process.exit(1);
}
console.log('generated/openapi.ts matches openapi.yaml');

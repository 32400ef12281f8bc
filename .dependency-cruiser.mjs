// The layer rules of src/: read from the numbered list under "## Layers" in docs/architecture.md, so the page and
// the check cannot disagree. A layer may import from the layers before it in the list, never from one after it; a file
// of src/ belongs to one of them.
import { readFileSync } from 'node:fs';

const page = readFileSync(new URL('docs/architecture.md', import.meta.url), 'utf8');
const section = page.split(/^## Layers$/m)[1]?.split(/^## /m)[0] ?? '';
const layers = [...section.matchAll(/^\d+\. `([^`]+)`/gm)].map(([, name]) => name);
if (layers.length < 2) throw new Error('docs/architecture.md has no "## Layers" list');

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// A folder is everything under it; a file is that one file.
const pathOf = (name) => (name.endsWith('/') ? `^src/${escape(name)}` : `^src/${escape(name)}$`);
const everyLayer = layers.map(pathOf);
const outside = { path: '^src/', pathNot: everyLayer };
const unlayered = 'a file of src/ outside every layer of docs/architecture.md (Layers): move it into one';

export default {
  forbidden: [
    ...layers.slice(0, -1).map((name, index) => ({
      name: `layer-${name.replace(/\W/g, '')}`,
      comment: `${name} sits above ${layers.slice(index + 1).join(', ')} (docs/architecture.md, Layers)`,
      severity: 'error',
      from: { path: pathOf(name) },
      to: { path: layers.slice(index + 1).map(pathOf) },
    })),
    { name: 'outside-layers-imports', comment: unlayered, severity: 'error', from: outside, to: {} },
    { name: 'outside-layers-imported', comment: unlayered, severity: 'error', from: {}, to: outside },
    { name: 'outside-layers-alone', comment: unlayered, severity: 'error', from: { ...outside, orphan: true }, to: {} },
    // How a list is read and how a record is written are told apart: neither reaches into the other, and what crud/
    // binds and shares (its own files) uses neither.
    { name: 'crud-read-apart', severity: 'error', from: { path: '^src/crud/read/' },
      to: { path: '^src/crud/write/' } },
    { name: 'crud-write-apart', severity: 'error', from: { path: '^src/crud/write/' },
      to: { path: '^src/crud/read/' } },
    { name: 'crud-shared-below', severity: 'error', from: { path: '^src/crud/[^/]+$' },
      to: { path: '^src/crud/(read|write)/' } },
    {
      name: 'no-circular',
      comment: 'Modules that import each other, even through others, cannot be read or tested one at a time',
      severity: 'error',
      // Entities of a relation name each other (`() => Translation`), read by MikroORM once both are loaded.
      from: { path: '^src/', pathNot: '^src/db/entities/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/',
    // Type-only imports count: a type from a layer below is still a dependency on it.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};

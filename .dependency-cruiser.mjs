// The layer rules of src/: read from the numbered list under "## Layers" in docs/architecture.md, so the page and
// the check cannot disagree. A layer may import from the layers before it in the list, never from one after it.
import { readFileSync } from 'node:fs';

const page = readFileSync(new URL('docs/architecture.md', import.meta.url), 'utf8');
const section = page.split(/^## Layers$/m)[1]?.split(/^## /m)[0] ?? '';
const layers = [...section.matchAll(/^\d+\. `([^`]+)`/gm)].map(([, name]) => name);
if (layers.length < 2) throw new Error('docs/architecture.md has no "## Layers" list');

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// A folder is everything under it; `config.ts` is that one file; `app` is every other file directly in src/.
const pathOf = (name) => (name === 'app' ? '^src/(?!config\\.ts$)[^/]+$'
  : name.endsWith('/') ? `^src/${escape(name)}` : `^src/${escape(name)}$`);

export default {
  forbidden: [
    ...layers.slice(0, -1).map((name, index) => ({
      name: `layer-${name.replace(/\W/g, '')}`,
      comment: `${name} sits above ${layers.slice(index + 1).join(', ')} (docs/architecture.md, Layers)`,
      severity: 'error',
      from: { path: pathOf(name) },
      to: { path: layers.slice(index + 1).map(pathOf) },
    })),
    {
      name: 'no-circular',
      comment: 'Modules that import each other, even through others, cannot be read or tested one at a time',
      severity: 'error',
      // Entities of a relation name each other (`() => Translation`), read by MikroORM once both are loaded.
      from: { path: '^src/', pathNot: '^src/db/entities/' },
      // A cycle of types alone (an entity and its relation's entity) is no order in which modules load.
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
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

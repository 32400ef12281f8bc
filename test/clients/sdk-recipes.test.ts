// The recipes docs/sdk.md shows per language are the code the scenarios run (sdk-scenarios.test.ts): each region a
// scenario marks `recipe: <name>` … `end recipe` must stand, line for line, in that language's code block of the doc.
// An edit to either side alone fails here, so the documented paging loop is the one that ran.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { root } from '../support/client-scripts.ts';

/** Each language's section in docs/sdk.md, the scenario file holding its recipes, and the recipes it must mark. */
const languages = [
  { heading: '### TypeScript (typescript-fetch)', file: 'clients/typescript/scenario.ts', required: ['paging'] },
  { heading: '### Python', file: 'clients/python/scenario.py', required: ['paging'] },
  { heading: '### Java (native)', file: 'clients/java/native/Sdk.java', required: ['paging'] },
  { heading: '### Go', file: 'clients/go/scenario.go',
    required: ['create', 'minimal create', 'paging', 'conflict', 'batch'] },
  { heading: '### Kotlin', file: 'clients/kotlin/Scenario.kt',
    required: ['create', 'minimal create', 'paging', 'conflict', 'batch'] },
];

/** Lines without their common indentation (tabs count as one column, as gofmt's are) and trailing blanks. */
function dedent(lines: string[]): string[] {
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => /^[\t ]*/.exec(l)![0].length));
  return lines.map((l) => l.slice(indent).trimEnd());
}

/** The marked regions of a scenario file, by name. */
export function recipes(text: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const lines = text.split('\n');
  lines.forEach((line, at) => {
    const name = /^\s*(?:\/\/|#) recipe: (.+)$/.exec(line)?.[1];
    if (!name) return;
    const end = lines.findIndex((l, i) => i > at && /^\s*(?:\/\/|#) end recipe$/.test(l));
    if (end < 0) throw new Error(`recipe ${name} has no end`);
    found.set(name, dedent(lines.slice(at + 1, end)));
  });
  return found;
}

/** The code blocks of the doc's section under `heading`, each dedented, up to the next heading of any level. */
function sectionCode(doc: string, heading: string): string[] {
  const start = doc.split('\n').indexOf(heading);
  if (start < 0) return [];
  const rest = doc.split('\n').slice(start + 1);
  const end = rest.findIndex((l) => /^#{1,3} /.test(l));
  const code: string[] = [];
  let block: string[] | undefined;
  for (const line of end < 0 ? rest : rest.slice(0, end)) {
    if (line.startsWith('```')) {
      if (block) code.push(...dedent(block), '');
      block = block ? undefined : [];
    } else if (block) block.push(line);
  }
  return code;
}

/** Whether `needle` stands in `lines` as consecutive lines, each dedented the same way. */
function contains(lines: string[], needle: string[]): boolean {
  return lines.some((_, at) => {
    const window = lines.slice(at, at + needle.length);
    return window.length === needle.length && dedent(window).every((line, i) => line === needle[i]);
  });
}

describe('the SDK recipes of docs/sdk.md @database-independent', () => {
  const doc = readFileSync(`${root}docs/sdk.md`, 'utf8');
  for (const { heading, file, required } of languages) {
    it(`when ${heading.slice(4)}'s recipes are read from ${file}, then each stands as is in its doc section`, () => {
      const marked = recipes(readFileSync(`${root}${file}`, 'utf8'));
      const code = sectionCode(doc, heading);
      expect({
        marked: required.filter((name) => marked.has(name)),
        drifted: [...marked].filter(([, lines]) => !contains(code, lines)).map(([name]) => name),
      }).to.deep.equal({ marked: required, drifted: [] });
    });
  }
});

// Guards that a reference in the code can be followed: each `docs/<page>.md#<anchor>` cited in a source file, and
// each link between the docs, names a page of docs/ and a heading on it, and no comment cites the behaviour contract
// by its parts (kept outside the repository) instead of docs/behaviour.md.
import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const sourceFolders = ['src', 'web/src', 'test', 'scripts', 'bench'];

/** Every file below `folder` whose name ends with one of `endings`, node_modules and build output left out. */
function filesBelow(folder: string, endings: string[]): string[] {
  return readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && endings.some((ending) => entry.name.endsWith(ending)))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .filter((path) => !/(^|\/)(node_modules|dist|build)\//.test(path));
}

/** The anchor GitHub gives a heading: its text lower-cased, without punctuation, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading.replace(/`/g, '').toLowerCase().replace(/[^\p{L}\p{N}\p{M}_\- ]/gu, '').replace(/ /g, '-');
}

/** The anchors of a page's headings (outside fenced code), a repeated one numbered as GitHub numbers it. */
function anchorsOf(page: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of readFileSync(join(root, page), 'utf8').split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6} +(.+?) *#* *$/.exec(line);
    if (!heading) continue;
    const anchor = anchorOf(heading[1]!);
    let numbered = anchor;
    for (let n = 1; anchors.has(numbered); n += 1) numbered = `${anchor}-${n}`;
    anchors.add(numbered);
  }
  return anchors;
}

interface Citation { where: string; page: string; anchor?: string }

/** What `docs/<page>.md#<anchor>` or `docs/<page>.md, "<heading>"` a source file cites, with its line. */
function citationsIn(path: string): Citation[] {
  const found: Citation[] = [];
  readFileSync(join(root, path), 'utf8').split('\n').forEach((line, index) => {
    for (const match of line.matchAll(/\bdocs\/([\w-]+\.md)(?:#([\w-]+)|, "([^"]+)")?/g)) {
      const anchor = match[2] ?? (match[3] === undefined ? undefined : anchorOf(match[3]));
      found.push({ where: `${path}:${index + 1}`, page: `docs/${match[1]}`, anchor });
    }
  });
  return found;
}

/** The links from one page of the docs (or the README) to a heading of a page of docs/: `](page.md#anchor)`. */
function linksIn(path: string): Citation[] {
  const folder = path.startsWith('docs/') ? 'docs' : '.';
  const found: Citation[] = [];
  readFileSync(join(root, path), 'utf8').split('\n').forEach((line, index) => {
    for (const match of line.matchAll(/\]\((?!https?:)([\w./-]*\.md)?#([\w.-]+)\)/g)) {
      const page = match[1] === undefined ? path : join(folder, match[1]);
      if (page.startsWith('docs/') || page === path)
        found.push({ where: `${path}:${index + 1}`, page, anchor: match[2] });
    }
  });
  return found;
}

/** The citations among `citations` that name no page, or no heading of their page. */
function unresolved(citations: Citation[]): string[] {
  const pages = new Map<string, Set<string>>();
  return citations.filter(({ page, anchor }) => {
    if (!existsSync(join(root, page))) return true;
    if (!pages.has(page)) pages.set(page, anchorsOf(page));
    return anchor !== undefined && !pages.get(page)!.has(anchor);
  }).map(({ where, page, anchor }) => `${where} cites ${page}${anchor === undefined ? '' : `#${anchor}`}`);
}

describe('references in the code and the docs', () => {
  it('when a heading is written, then its anchor is the one GitHub gives it', () => {
    expect(['Prefer: return=representation', 'The gate: `npm run contract:diff`',
      'Versions, changes and partial updates']
      .map(anchorOf)).to.deep.equal(['prefer-returnrepresentation', 'the-gate-npm-run-contractdiff',
      'versions-changes-and-partial-updates']);
  });

  it('when a source file cites a page of docs/ and a heading on it, then both exist', () => {
    const citations = sourceFolders.flatMap((folder) => filesBelow(folder, ['.ts', '.js', '.mjs', '.sh']))
      .flatMap(citationsIn);
    expect(citations.filter(({ page }) => page === 'docs/behaviour.md').length, 'citations of docs/behaviour.md')
      .to.be.greaterThan(20);
    expect(unresolved(citations)).to.deep.equal([]);
  });

  it('when a page of the docs links to a heading, then the heading exists', () => {
    const links = ['README.md', ...filesBelow('docs', ['.md']).filter((path) => path !== 'docs/changelog.md')]
      .flatMap(linksIn);
    expect(links.length, 'links to headings in the docs').to.be.greaterThan(0);
    expect(unresolved(links)).to.deep.equal([]);
  });

  it('when a comment names a part of the behaviour contract, then it does so by a page of docs/, not a letter', () => {
    const byLetter = sourceFolders.flatMap((folder) => filesBelow(folder, ['.ts', '.js', '.mjs', '.sh']))
      .filter((path) => path !== 'test/architecture/doc-references.test.ts')
      .flatMap((path) => readFileSync(join(root, path), 'utf8').split('\n')
        .flatMap((line, index) => (/\bcontracts? [A-E]\b/.test(line) ? [`${path}:${index + 1}`] : [])));
    expect(byLetter).to.deep.equal([]);
  });
});

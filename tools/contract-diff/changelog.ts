// The findings as Markdown for CI logs and docs/changelog.md: breaking first, then deprecations, then compatible
// changes. One line says the same change in several media types or statuses of an operation, and one heading lists
// the operations that share the same lines (a header added to every answer is one line, not hundreds).
import { code, type Finding, type Level } from './finding.ts';

const sections: [Level, string][] = [
  ['breaking', 'Breaking changes'],
  ['deprecated', 'Deprecated'],
  ['compatible', 'Compatible changes'],
];

/** Values that differ only in the part `vary` picks out, merged into one line listing each such part. */
function merge<T>(items: T[], vary: (item: T) => { key: string; part?: string },
  render: (item: T, parts: string[]) => string): string[] {
  const groups = new Map<string, { item: T; parts: string[] }>();
  for (const item of items) {
    const { key, part } = vary(item);
    const group = groups.get(key) ?? groups.set(key, { item, parts: [] }).get(key)!;
    if (part !== undefined && !group.parts.includes(part)) group.parts.push(part);
  }
  return [...groups.values()].map(({ item, parts }) => render(item, parts));
}

/** An operation's lines: media types of one body merged, then statuses of one change merged. */
function linesOf(findings: Finding[]): string[] {
  const byMedia = merge(findings,
    ({ where, path, message, media }) => ({ key: JSON.stringify([where, path, message]), part: media }),
    ({ where, path, message }, media) =>
      `${[where, media.map(code).join(', '), path ? code(path) : ''].filter(Boolean).join(' ')}: ${message}`);
  const status = /^response (`[^`]+`)/;
  return merge(byMedia, (line) => ({ key: line.replace(status, 'response *'), part: status.exec(line)?.[1] }),
    (line, statuses) => `- ${statuses.length > 1 ? line.replace(status, `response ${statuses.join(', ')}`) : line}`)
    // A change to the operation itself has no place before its message.
    .map((line) => line.replace(/^- : /, '- '));
}

function heading(operations: string[], every: number): string {
  if (operations.length === every && every > 3) return `#### Every operation (${every})`;
  const names = operations.map((operation) => (operation === 'contract' ? 'the whole contract' : code(operation)));
  if (operations.length <= 3) return `#### ${names.join(', ')}`;
  return `#### ${operations.length} operations\n\n${names.join(', ')}`;
}

/**
 * Headings start at `###`, so the text fits under a release's `##` heading. `every` is the number of operations of the
 * new contract: a line they all share is said of every operation.
 */
export function renderChangelog(findings: Finding[], every: number): string {
  if (!findings.length) return 'No change to the operations, their parameters, bodies, responses or security.';
  const parts: string[] = [];
  for (const [level, title] of sections) {
    const chosen = findings.filter((finding) => finding.level === level);
    if (!chosen.length) continue;
    const operations = [...new Set(chosen.map((finding) => finding.operation))];
    // Each line with the operations that have it; lines with the same operations go under one heading.
    const owners = new Map<string, string[]>();
    for (const operation of operations) {
      for (const line of linesOf(chosen.filter((finding) => finding.operation === operation))) {
        owners.set(line, [...(owners.get(line) ?? []), operation]);
      }
    }
    const groups = new Map<string, string[]>();
    for (const [line, owned] of owners) {
      const key = JSON.stringify(owned);
      groups.set(key, [...(groups.get(key) ?? []), line]);
    }
    const count = `${chosen.length} in ${operations.length} operation${operations.length > 1 ? 's' : ''}`;
    parts.push(`### ${title} (${count})`);
    for (const [owned, lines] of groups) parts.push(heading(JSON.parse(owned) as string[], every), lines.join('\n'));
  }
  return parts.join('\n\n');
}

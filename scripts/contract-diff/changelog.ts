// The findings as Markdown for CI logs and docs/changelog.md: breaking first, then deprecations, then the
// compatible changes; within each, one list per operation in the order of the new contract, and one line for the
// same change in several media types of one body.
import { code, type Finding, type Level } from './finding.ts';

const sections: [Level, string][] = [
  ['breaking', 'Breaking changes'],
  ['deprecated', 'Deprecated'],
  ['compatible', 'Compatible changes'],
];

function lines(findings: Finding[]): string[] {
  const media = new Map<string, string[]>();
  for (const { where, path, message, media: type } of findings) {
    const key = JSON.stringify([where, path, message]);
    media.set(key, [...(media.get(key) ?? []), ...(type ? [type] : [])]);
  }
  return [...media].map(([key, types]) => {
    const [where, path, message] = JSON.parse(key) as [string, string | null, string];
    const place = [where, types.map(code).join(', '), path ? code(path) : ''].filter(Boolean).join(' ');
    return `- ${place ? `${place}: ` : ''}${message}`;
  });
}

/** Headings start at `###`, so the text fits under a release's `##` heading. */
export function renderChangelog(findings: Finding[]): string {
  if (!findings.length) return 'No change to the operations, their parameters, bodies, responses or security.';
  const parts: string[] = [];
  for (const [level, title] of sections) {
    const chosen = findings.filter((finding) => finding.level === level);
    if (!chosen.length) continue;
    const operations = new Map<string, Finding[]>();
    for (const finding of chosen) operations.set(finding.operation, [...(operations.get(finding.operation) ?? []), finding]);
    parts.push(`### ${title} (${chosen.length} in ${operations.size} operation${operations.size > 1 ? 's' : ''})`);
    for (const [operation, list] of operations) {
      parts.push(`#### ${operation === 'contract' ? 'The whole contract' : code(operation)}`, lines(list).join('\n'));
    }
  }
  return parts.join('\n\n');
}

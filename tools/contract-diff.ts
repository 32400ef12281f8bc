// The contract's breaking-change gate: `npm run contract:diff -- <git-ref>` compares openapi.yaml with the one at
// <git-ref> (default: the current version's release, see contract-diff/baseline.ts), prints the changelog and exits 1
// on a breaking change unless info.version's major number was raised. `--old <file> [--new <file>]` compares files.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { diffContracts, gateVerdict, scratchFile } from './contract-diff/diff.ts';
import { releaseBaseline } from './contract-diff/baseline.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values, positionals } =
  parseArgs({ allowPositionals: true, options: { old: { type: 'string' }, new: { type: 'string' } } });

const newFile = values.new ?? `${root}openapi.yaml`;
let oldFile = values.old;
if (!oldFile) {
  const baseline = positionals[0] ? { ref: positionals[0], how: positionals[0] } : releaseBaseline(newFile);
  if (!baseline) {
    console.log('contract:diff: no git history and no release to compare with; nothing to gate');
    process.exit(0);
  }
  console.log(`contract:diff: openapi.yaml against ${baseline.how}`);
  const text = execFileSync('git', ['show', `${baseline.ref}:openapi.yaml`],
    { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  oldFile = scratchFile('baseline-openapi.yaml', text);
}
const diff = diffContracts(oldFile, newFile);
console.log(`${diff.changelog}\n`);
console.log(`contract:diff: ${diff.oldVersion} -> ${diff.newVersion}: ${diff.result}`);
const refusal = gateVerdict(diff);
if (refusal) {
  console.error(`contract:diff: ${refusal}`);
  process.exitCode = 1;
}

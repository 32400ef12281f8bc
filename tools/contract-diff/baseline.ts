// Which commit holds the release the gate compares with: the tag `contract-v<info.version>` when the current version
// was released with one, else the commit that set the current info.version (`npm run contract:release` writes it, so
// a clone without tags still finds it in the history).
import { execFileSync } from 'node:child_process';
import { versionOf } from './diff.ts';

const git = (args: string[]) =>
  execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();

export interface Baseline {
  ref: string;
  /** How the ref was found, for the log. */
  how: string;
}

export function releaseBaseline(contract: string): Baseline | undefined {
  const tag = `contract-v${versionOf(contract)}`;
  try {
    git(['rev-parse', '--verify', '--quiet', `refs/tags/${tag}`]);
    return { ref: tag, how: `the release tag ${tag}` };
  } catch { /* not tagged here: the history of info.version says */ }
  try {
    // -G lists the commits whose diff touches info.version's line (the only `version:` two spaces deep); the newest
    // one set the version HEAD carries, so nothing after it may break that version's clients.
    const commit = git(['log', '-1', '--format=%H', '-G', '^  version: ', '--', 'openapi.yaml']);
    const how = `commit ${commit.slice(0, 12)}, which set info.version (no tag ${tag} here)`;
    if (commit) return { ref: commit, how };
  } catch { /* not a git checkout */ }
  return undefined;
}

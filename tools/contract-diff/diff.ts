// Compares two contracts and decides the release gate: a change that can break a client generated from the old
// contract needs a higher major version of info.version (semver §8).
import { isDeepStrictEqual } from 'node:util';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { renderChangelog } from './changelog.ts';
import { Contract } from './document.ts';
import type { Finding } from './finding.ts';
import { operationChanges } from './operation-changes.ts';
import { operationsOf } from './operations.ts';
import { schemeChanges } from './security-changes.ts';

const here = fileURLToPath(new URL('.', import.meta.url));

/** NO_CHANGES: equal documents; METADATA: only prose, examples and the like; COMPATIBLE; INCOMPATIBLE: breaking. */
export type DiffResult = 'NO_CHANGES' | 'METADATA' | 'COMPATIBLE' | 'INCOMPATIBLE';

export interface ContractDiff {
  /** Markdown: the breaking, deprecated and compatible changes, per operation. */
  changelog: string;
  findings: Finding[];
  result: DiffResult;
  oldVersion: string;
  newVersion: string;
}

export function versionOf(file: string): string {
  return checkedVersion(file, (parse(readFileSync(file, 'utf8')) as { info?: { version?: unknown } }).info?.version);
}

function checkedVersion(file: string, version: unknown): string {
  if (typeof version !== 'string' || !/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version)) {
    const why = `must be a semantic version (MAJOR.MINOR.PATCH), not ${JSON.stringify(version)}`;
    throw new Error(`${file}: info.version ${why}`);
  }
  return version;
}

/** Compares two parsed contracts. */
export function compareContracts(old: Contract, next: Contract): Omit<ContractDiff, 'oldVersion' | 'newVersion'> {
  const findings = [...schemeChanges(old, next), ...operationChanges(old, next)];
  const result: DiffResult = findings.some((finding) => finding.level === 'breaking') ? 'INCOMPATIBLE'
    : findings.length ? 'COMPATIBLE'
    : isDeepStrictEqual(old.root, next.root) ? 'NO_CHANGES' : 'METADATA';
  return { changelog: renderChangelog(findings, operationsOf(next).size), findings, result };
}

/** Compares the contract `oldFile` with `newFile`. */
export function diffContracts(oldFile: string, newFile: string): ContractDiff {
  const old = Contract.fromFile(oldFile);
  const next = Contract.fromFile(newFile);
  const version = (contract: Contract, file: string) =>
    checkedVersion(file, (contract.root.info as { version?: unknown } | undefined)?.version);
  return { ...compareContracts(old, next), oldVersion: version(old, oldFile), newVersion: version(next, newFile) };
}

const major = (version: string) => Number(version.split('.')[0]);

/** Why the change may not land, or undefined: a breaking change needs a higher major version (semver §8). */
export function gateVerdict(diff: Pick<ContractDiff, 'result' | 'oldVersion' | 'newVersion'>): string | undefined {
  const { result, oldVersion, newVersion } = diff;
  if (result === 'INCOMPATIBLE' && major(newVersion) <= major(oldVersion)) {
    return `breaking change to the contract: raise info.version's major number (now ${newVersion}, was ${oldVersion})`
      + ' or make the change compatible';
  }
  return undefined;
}

/** Writes `text` to a temporary file and returns its path (the contract as it was at a commit). */
export function scratchFile(name: string, text: string): string {
  mkdirSync(`${here}target`, { recursive: true });
  const file = `${here}target/${name}`;
  writeFileSync(file, text);
  return file;
}

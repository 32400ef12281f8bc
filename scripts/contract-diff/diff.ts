// Runs OpenAPITools' openapi-diff (Maven Central, through pom.xml) on two contracts and decides the release gate.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const here = fileURLToPath(new URL('.', import.meta.url));
const javaHome = process.env.CLIENTS_JAVA_HOME ?? '/usr/lib/jvm/java-17-openjdk-amd64';

/** openapi-diff's verdict: NO_CHANGES, METADATA, COMPATIBLE or INCOMPATIBLE. */
export type DiffResult = 'NO_CHANGES' | 'METADATA' | 'COMPATIBLE' | 'INCOMPATIBLE';

export interface ContractDiff {
  /** Markdown, with the sections Added, Removed, Deprecated and Changed. */
  changelog: string;
  result: DiffResult;
  oldVersion: string;
  newVersion: string;
}

function maven(args: string[]): void {
  const run = (offline: boolean) => execFileSync('mvn', ['-B', '-q', '-Dstyle.color=never', ...(offline ? ['-o'] : []), ...args],
    { cwd: here, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, JAVA_HOME: javaHome } });
  // Offline first: a warm ~/.m2 needs no network; Maven Central only for what is missing.
  try { run(true); } catch { run(false); }
}

/** openapi-diff's class path, asked of Maven once per pom.xml. */
function classPath(): string {
  const pom = readFileSync(`${here}pom.xml`);
  const file = `${here}target/classpath-${createHash('sha256').update(pom).digest('hex').slice(0, 16)}.txt`;
  if (!existsSync(file)) {
    mkdirSync(`${here}target`, { recursive: true });
    maven(['org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath', `-Dmdep.outputFile=${file}`]);
  }
  return readFileSync(file, 'utf8').trim();
}

export function versionOf(file: string): string {
  const version = (parse(readFileSync(file, 'utf8')) as { info?: { version?: unknown } }).info?.version;
  if (typeof version !== 'string' || !/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version)) {
    throw new Error(`${file}: info.version must be a semantic version (MAJOR.MINOR.PATCH), not ${JSON.stringify(version)}`);
  }
  return version;
}

const sections: Record<string, string> = { "What's New": 'Added', "What's Deleted": 'Removed', "What's Deprecated": 'Deprecated', "What's Changed": 'Changed' };

/** Compares the contract `oldFile` with `newFile`. */
export function diffContracts(oldFile: string, newFile: string): ContractDiff {
  const output = execFileSync(`${javaHome}/bin/java`, ['-cp', classPath(), `${here}ContractDiff.java`, oldFile, newFile],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
  const result = /^openapi-diff result: (\w+)$/m.exec(output)?.[1] as DiffResult | undefined;
  if (!result) throw new Error(`openapi-diff printed no result:\n${output}`);
  const changelog = output.slice(0, output.lastIndexOf('openapi-diff result:'))
    .replace(/^(#+) (What's \w+)$/gm, (line, hashes: string, title: string) => (sections[title] ? `${hashes} ${sections[title]}` : line))
    .replace(/\n{3,}/g, '\n\n').trim();
  return { changelog, result, oldVersion: versionOf(oldFile), newVersion: versionOf(newFile) };
}

const major = (version: string) => Number(version.split('.')[0]);

/** Why the change may not land, or undefined: a breaking change needs a higher major version (semver §8). */
export function gateVerdict({ result, oldVersion, newVersion }: ContractDiff): string | undefined {
  if (result === 'INCOMPATIBLE' && major(newVersion) <= major(oldVersion)) {
    return `breaking change to the contract: raise info.version's major number (now ${newVersion}, was ${oldVersion}) or make the change compatible`;
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

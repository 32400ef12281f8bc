// The SDK builds of clients/ as tests run them: whether this machine can build them, and one of its scripts, run.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../../', import.meta.url));
// clients/env.sh's JDK: the generator is a Java program (even for the TypeScript SDK) and Maven fetches it.
const java = `${process.env.CLIENTS_JAVA_HOME ?? '/usr/lib/jvm/java-17-openjdk-amd64'}/bin/java`;

/** Why the SDKs cannot be built here, or undefined when Java 17 and Maven are both present. */
export function missingTool(): string | undefined {
  if (!existsSync(java)) return `${java} is missing (Java 17; set CLIENTS_JAVA_HOME to another JDK 17)`;
  try {
    execFileSync('mvn', ['--version'], { stdio: 'ignore' });
    return undefined;
  } catch {
    return 'mvn (Maven) is not on PATH';
  }
}

/** Runs a clients/ script; resolves with its exit code and everything it printed, interleaved. */
export function runClientScript(script: string, args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = execFile(`${root}clients/${script}`, args, { cwd: root, maxBuffer: 16 * 1024 * 1024 });
    let output = '';
    child.stdout!.on('data', (chunk: string) => { output += chunk; });
    child.stderr!.on('data', (chunk: string) => { output += chunk; });
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });
}

// The first step of a start: the settings checked with nothing else loaded, so a bad one fails at once with one line.
import { InvalidConfiguration, loadConfig, type Config } from './config.ts';
import { fatalLine } from './fatal-line.ts';

/** The settings, or one fatal line naming each bad variable (never its value) and exit 1. */
export function checkedSettings(env: Record<string, string | undefined> = process.env): Config {
  try {
    return loadConfig(env);
  } catch (error) {
    if (!(error instanceof InvalidConfiguration)) throw error;
    return fatalLine({ cause: 'configuration', problems: error.problems },
      `the service could not start: ${error.message}`);
  }
}

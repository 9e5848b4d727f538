import { loadSettings, SettingsError, type Settings } from '../config/settings.ts';

/** A command-line tool's settings, or undefined once `say` has told what is wrong with them (exit 1). */
export function loadCliSettings(say: (line: string) => void): Settings | undefined {
  try {
    return loadSettings();
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    say(error.message);
    return undefined;
  }
}

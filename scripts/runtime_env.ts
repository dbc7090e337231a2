/**
 * The platform's runtime settings of scripts/runtime.env (V8 flags, glibc's arenas), for the
 * processes that start the platform outside scripts/start.sh: the end-to-end servers and the
 * benchmarks. A variable already set in `env` wins, as in scripts/lib.sh.
 */
import { readFileSync } from "node:fs";

/** The settings of scripts/runtime.env, `KEY=value` lines; `#` starts a comment line. */
export function parseRuntimeEnv(text: string): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const match = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (match) settings[match[1]!] = match[2]!;
  }
  return settings;
}

/** The settings that `env` lacks. */
export function missingRuntimeEnv(
  env: Record<string, string | undefined>,
  file = new URL("./runtime.env", import.meta.url),
): Record<string, string> {
  const settings = parseRuntimeEnv(readFileSync(file, "utf8"));
  return Object.fromEntries(Object.entries(settings).filter(([key]) => !env[key]));
}

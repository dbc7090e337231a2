/**
 * The benchmarks measure the platform as scripts/start.sh runs it: a benchmark started without
 * the runtime settings of scripts/runtime.env runs again in a child process with them.
 */
import { missingRuntimeEnv } from "../../runtime_env.ts";

/** Returns at once under the product's settings; otherwise runs the benchmark again and exits. */
export async function withProductRuntime(): Promise<void> {
  const missing = missingRuntimeEnv(Deno.env.toObject());
  if (!Object.keys(missing).length) return;
  const settings = Object.entries(missing).map(([key, value]) => `${key}=${value}`).join(" ");
  console.log(
    `Running again with the platform's runtime settings (scripts/runtime.env): ${settings}`,
  );
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--v8-flags=--expose-gc", Deno.mainModule, ...Deno.args],
    env: missing,
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  Deno.exit((await child.status).code);
}

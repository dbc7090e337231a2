/** The process refuses to start on invalid configuration with one clear line and exit code 1. */
import assert from "node:assert/strict";

async function start(env: Record<string, string>) {
  const command = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "main.ts"],
    env: { ...env, DATA_DIR: await Deno.makeTempDir() },
    stdout: "piped",
    stderr: "piped",
  });
  const { code, stderr, stdout } = await command.output();
  return {
    code,
    stderr: new TextDecoder().decode(stderr),
    stdout: new TextDecoder().decode(stdout),
  };
}

Deno.test("main.ts exits with code 1 and one line naming the variable when PORT is invalid", async () => {
  const { code, stderr, stdout } = await start({ PORT: "70000" });
  assert.equal(code, 1);
  const lines = stderr.split("\n").filter((l) => l.trim() && !l.includes("npm warn"));
  assert.equal(lines.length, 1, stderr);
  assert.match(lines[0]!, /^Invalid configuration: PORT: /);
  assert.equal(stdout.trim(), "");
});

Deno.test("main.ts refuses a DATABASE_URL that is not PostgreSQL before opening anything", async () => {
  const { code, stderr } = await start({ DATABASE_URL: "mysql://root:secret@db/grid" });
  assert.equal(code, 1);
  assert.match(stderr, /Invalid configuration: DATABASE_URL: must start with postgres/);
  assert.doesNotMatch(stderr, /secret/);
});

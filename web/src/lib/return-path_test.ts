import assert from "node:assert/strict";
import { returnPathFromState } from "./return-path.ts";

Deno.test("returnPathFromState() returns the remembered path with query and hash", () => {
  assert.equal(
    returnPathFromState({ returnTo: "/grid-monitoring?voltage=mv#x" }),
    "/grid-monitoring?voltage=mv#x",
  );
});

Deno.test("returnPathFromState() falls back to / for missing, foreign or callback targets", () => {
  assert.equal(returnPathFromState(undefined), "/");
  assert.equal(returnPathFromState({ returnTo: "https://evil.example/" }), "/");
  assert.equal(returnPathFromState({ returnTo: "//evil.example" }), "/");
  assert.equal(returnPathFromState({ returnTo: "/auth/callback?code=1" }), "/");
});

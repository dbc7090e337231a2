import assert from "node:assert/strict";
import { hashSecret, newClientId, newSecret, secretMatches } from "./secrets.ts";

Deno.test("newSecret() gives 256 random bits that differ every time", () => {
  const a = newSecret();
  assert.match(a, /^gws_[\w-]{43}$/);
  assert.notEqual(a, newSecret());
  assert.match(newClientId(), /^gwc_[0-9a-f]{20}$/);
});

Deno.test("secretMatches() accepts the secret and refuses any other", async () => {
  const secret = newSecret();
  const hash = await hashSecret(secret);
  assert.equal(await secretMatches(secret, hash), true);
  assert.equal(await secretMatches(`${secret}x`, hash), false);
  assert.equal(await secretMatches("", hash), false);
  assert.equal(await secretMatches("x".repeat(10_000), hash), false);
});

import assert from "node:assert/strict";
import { DownloadLinks, LINK_TTL_MS } from "./download_link.ts";

Deno.test("DownloadLinks.check() accepts its own token until it expires, for that export only", async () => {
  const links = new DownloadLinks();
  const now = Date.now();
  const token = await links.token("e1", "u.1", now);
  assert.equal(await links.check("e1", token, now + 1000), "u.1");
  assert.equal(await links.check("e2", token, now), null);
  assert.equal(await links.check("e1", token, now + LINK_TTL_MS + 1), null);
  assert.equal(await links.check("e1", token.replace("u.1", "u.2"), now), null);
  assert.equal(await new DownloadLinks().check("e1", token, now), null);
  assert.equal(await links.check("e1", "garbage", now), null);
});

import assert from "node:assert/strict";
import { isUsableStartPage, resolveStartPage } from "./start-page.ts";

Deno.test("resolveStartPage() prefers the user's stored start page", () => {
  assert.equal(
    resolveStartPage({ stored: "/grid-monitoring", claim: "/data-export", fallback: "/x" }),
    "/grid-monitoring",
  );
});

Deno.test("resolveStartPage() falls back to the start_page claim, then the configured default", () => {
  assert.equal(
    resolveStartPage({ stored: null, claim: "/power-quality", fallback: "/d" }),
    "/power-quality",
  );
  assert.equal(
    resolveStartPage({ stored: "", claim: undefined, fallback: "/data-export" }),
    "/data-export",
  );
});

Deno.test("resolveStartPage() skips values that would loop or leave the site", () => {
  assert.equal(resolveStartPage({ stored: "/", claim: "//evil.example", fallback: "/d" }), "/d");
  assert.equal(
    resolveStartPage({ stored: "https://evil.example", claim: 42, fallback: "/d" }),
    "/d",
  );
});

Deno.test("isUsableStartPage() accepts paths with a query or hash", () => {
  assert.equal(isUsableStartPage("/grid-monitoring?voltage=mv"), true);
  assert.equal(isUsableStartPage("/?a=1"), false);
  assert.equal(isUsableStartPage("/\\evil"), false);
});

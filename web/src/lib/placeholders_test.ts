import assert from "node:assert/strict";
import { convertResource, toI18nextPlaceholders } from "./placeholders.ts";

Deno.test("toI18nextPlaceholders() turns {limit} into {{limit}} and keeps {{count}}", () => {
  assert.equal(toI18nextPlaceholders("Maximum {limit} requests"), "Maximum {{limit}} requests");
  assert.equal(toI18nextPlaceholders("Keep {{count}} and {x}"), "Keep {{count}} and {{x}}");
  assert.equal(toI18nextPlaceholders("No braces"), "No braces");
});

Deno.test("convertResource() converts nested and flat dotted keys alike", () => {
  assert.deepEqual(
    convertResource({ "pq.reportLimit": "Limit {limit}", data: { period: "Over {days} days" } }),
    { "pq.reportLimit": "Limit {{limit}}", data: { period: "Over {{days}} days" } },
  );
});

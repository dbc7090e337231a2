import assert from "node:assert/strict";
import { z } from "zod";
import { fieldIssues } from "./field_issues.ts";

function issuesOf(schema: z.ZodType, input: unknown) {
  const result = schema.safeParse(input);
  assert.equal(result.success, false);
  return fieldIssues(result.error!.issues, input);
}

Deno.test("fieldIssues() keeps a message that is a key, with the rule's limit as count", () => {
  const name = z.object({
    name: z.string().min(3, "validation.nameMin").max(60, "validation.nameMax"),
  });
  assert.deepEqual(issuesOf(name, { name: "ab" }), [
    { path: "name", key: "validation.nameMin", params: { count: 3 } },
  ]);
  assert.deepEqual(issuesOf(name, { name: "x".repeat(61) }), [
    { path: "name", key: "validation.nameMax", params: { count: 60 } },
  ]);
});

Deno.test("fieldIssues() tells a missing field (required) from a wrong type", () => {
  const schema = z.object({ level: z.enum(["LV", "MV"]), n: z.number() });
  assert.deepEqual(issuesOf(schema, {}), [
    { path: "level", key: "validation.required", params: {} },
    { path: "n", key: "validation.required", params: {} },
  ]);
  assert.deepEqual(issuesOf(schema, { level: "HV", n: "3" }), [
    { path: "level", key: "validation.invalidChoice", params: {} },
    { path: "n", key: "validation.invalidValue", params: {} },
  ]);
});

Deno.test("fieldIssues() gives numbers min/max and strings and lists count", () => {
  const schema = z.object({
    amps: z.number().min(1).max(3000),
    tags: z.array(z.string()).max(2),
    text: z.string().max(5),
  });
  assert.deepEqual(issuesOf(schema, { amps: 0, tags: ["a", "b", "c"], text: "toolong" }), [
    { path: "amps", key: "validation.min", params: { min: 1 } },
    { path: "tags", key: "validation.maxItems", params: { count: 2 } },
    { path: "text", key: "validation.maxChars", params: { count: 5 } },
  ]);
  assert.deepEqual(issuesOf(schema, { amps: 3001, tags: [], text: "" }), [
    { path: "amps", key: "validation.max", params: { max: 3000 } },
  ]);
});

Deno.test("fieldIssues() names each unknown key of a strict object by its path", () => {
  const schema = z.strictObject({ a: z.object({ b: z.string() }).strict() });
  assert.deepEqual(issuesOf(schema, { a: { b: "x", c: 1 }, __proto__x: 2 }), [
    { path: "a.c", key: "validation.unknownField", params: {} },
    { path: "__proto__x", key: "validation.unknownField", params: {} },
  ]);
});

Deno.test("fieldIssues() keeps a refinement's key and params, and dotted nested paths", () => {
  const schema = z.object({
    feeders: z.array(z.object({
      delta: z.number().refine((v) => v % 1 === 0, {
        message: "settings.decimals",
        params: { count: 0 },
      }),
    })),
  });
  assert.deepEqual(issuesOf(schema, { feeders: [{ delta: 1 }, { delta: 1.5 }] }), [
    { path: "feeders.1.delta", key: "settings.decimals", params: { count: 0 } },
  ]);
});

Deno.test("fieldIssues() maps formats: e-mail, date-time and others", () => {
  const schema = z.object({ mail: z.email(), at: z.iso.datetime(), ip: z.ipv4() });
  assert.deepEqual(issuesOf(schema, { mail: "x", at: "yesterday", ip: "1.2.3" }), [
    { path: "mail", key: "validation.emailInvalid", params: {} },
    { path: "at", key: "validation.dateInvalid", params: {} },
    { path: "ip", key: "validation.invalidFormat", params: {} },
  ]);
});

Deno.test("fieldIssues() never uses a sentence as a key", () => {
  const schema = z.object({ n: z.number().refine(() => false, "Not a manual duration") });
  assert.deepEqual(issuesOf(schema, { n: 7 }), [
    { path: "n", key: "validation.invalidValue", params: {} },
  ]);
});

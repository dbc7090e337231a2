import assert from "node:assert/strict";
import { fieldIssuesOf, serverErrors } from "./field-errors.ts";

const validation = (issues: unknown) => ({ key: "common.validation", params: { issues } });
const byPath = {
  field: (path: string) =>
    ["name", "email", "warning_thresholds.overvoltage_pct"].includes(path) ? path : null,
};

Deno.test("fieldIssuesOf() reads {path, key, params} issues of common.validation only", () => {
  const issue = { path: "name", key: "validation.nameMin", params: { count: 3 } };
  assert.deepEqual(fieldIssuesOf(validation([issue, { path: 1 }, null])), [issue]);
  assert.deepEqual(
    fieldIssuesOf({ key: "settings.logoTooLarge", params: { issues: [issue] } }),
    [],
  );
  assert.deepEqual(fieldIssuesOf(validation("nope")), []);
  assert.deepEqual(fieldIssuesOf(null), []);
});

Deno.test("serverErrors() puts each issue on its field, the first one winning", () => {
  const errors = serverErrors(
    validation([
      { path: "name", key: "validation.nameMin", params: { count: 3 } },
      { path: "name", key: "validation.forbiddenChars", params: {} },
      {
        path: "warning_thresholds.overvoltage_pct",
        key: "settings.outOfRange",
        params: { min: 1 },
      },
    ]),
    byPath,
  );
  assert.deepEqual(errors, {
    fields: {
      name: { key: "validation.nameMin", params: { count: 3 } },
      "warning_thresholds.overvoltage_pct": { key: "settings.outOfRange", params: { min: 1 } },
    },
    form: null,
  });
});

Deno.test("serverErrors() puts issues of unknown fields and other refusals on the form", () => {
  assert.deepEqual(
    serverErrors(
      validation([{ path: "role", key: "validation.invalidChoice", params: {} }]),
      byPath,
    ),
    { fields: {}, form: { key: "validation.invalidChoice" } },
  );
  const keyField = (key: string) => key === "users.emailExists" ? "email" : null;
  assert.deepEqual(
    serverErrors({ code: 609, key: "users.emailExists", params: {} }, { ...byPath, keyField }),
    { fields: { email: { key: "users.emailExists", code: 609 } }, form: null },
  );
  assert.deepEqual(serverErrors({ key: "users.selfLockout", params: {} }, byPath), {
    fields: {},
    form: { key: "users.selfLockout" },
  });
});

Deno.test("serverErrors() gives the fallback message when no answer came", () => {
  assert.deepEqual(serverErrors(null, byPath), {
    fields: {},
    form: { key: "messages.savingFailed" },
  });
});

/**
 * zod issues as field errors `{path, key, params}`: the one shape every `common.validation`
 * answer carries. A schema names the message key of a rule in its message
 * (`z.string().min(3, "validation.nameMin")`); a zod message that is already a key stays the
 * key, with the rule's limit as `count` (strings, lists) or `min`/`max` (numbers). Rules
 * without a key of their own get a general one from the issue's kind. Pure: imports only zod.
 */
import type { z } from "zod";
import type { FieldIssue } from "./errors.ts";

/** A message key of the `errors` namespace: `area.name`, never a sentence. */
const KEY = /^[a-z][a-zA-Z0-9]*\.[a-zA-Z0-9.]+$/;

type Issue = z.core.$ZodIssue;

/** The value at `path` inside `input`, or undefined when any step is missing. */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const step of path) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[step];
  }
  return value;
}

const isSized = (origin: string) => origin === "string" || origin === "array" || origin === "set";

/** The limit of a size or range rule as the message's placeholders. */
function limitParams(issue: Issue): Record<string, unknown> {
  if (issue.code === "too_small") {
    const limit = Number(issue.minimum);
    return isSized(issue.origin) ? { count: limit } : { min: limit };
  }
  if (issue.code === "too_big") {
    const limit = Number(issue.maximum);
    return isSized(issue.origin) ? { count: limit } : { max: limit };
  }
  if (issue.code === "custom") return { ...(issue.params ?? {}) };
  return {};
}

/** The general key of an issue whose schema named none. */
function generalKey(issue: Issue, missing: boolean): string {
  switch (issue.code) {
    case "invalid_type":
      return missing ? "validation.required" : "validation.invalidValue";
    case "too_small":
      if (issue.origin === "string") {
        return Number(issue.minimum) <= 1 ? "validation.required" : "validation.minChars";
      }
      return isSized(issue.origin) ? "validation.minItems" : "validation.min";
    case "too_big":
      if (issue.origin === "string") return "validation.maxChars";
      return isSized(issue.origin) ? "validation.maxItems" : "validation.max";
    case "invalid_format":
      if (issue.format === "email") return "validation.emailInvalid";
      return issue.format === "datetime" || issue.format === "date"
        ? "validation.dateInvalid"
        : "validation.invalidFormat";
    case "invalid_value":
    case "invalid_union":
      return missing ? "validation.required" : "validation.invalidChoice";
    case "unrecognized_keys":
      return "validation.unknownField";
    case "not_multiple_of":
      return "validation.invalidValue";
    default:
      return "validation.invalidValue";
  }
}

/**
 * The field errors of a failed parse of `input`: one per issue, an unknown key one per key
 * (its path names the key). Paths are dotted (`feeders.2.name`); the body itself is `""`.
 */
export function fieldIssues(issues: readonly Issue[], input: unknown): FieldIssue[] {
  return issues.flatMap((issue): FieldIssue[] => {
    const path = issue.path.map(String);
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({
        path: [...path, key].join("."),
        key: "validation.unknownField",
        params: {},
      }));
    }
    const missing = valueAt(input, issue.path) === undefined;
    if (KEY.test(issue.message)) {
      return [{ path: path.join("."), key: issue.message, params: limitParams(issue) }];
    }
    const key = generalKey(issue, missing);
    const params = key === "validation.required" ? {} : limitParams(issue);
    return [{ path: path.join("."), key, params }];
  });
}

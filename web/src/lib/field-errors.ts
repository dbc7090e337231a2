/**
 * The one reader of refused saves for every form: a `common.validation` answer lists its field
 * errors as `{path, key, params}` (kernel/contract.ts), any other refusal is one message for the
 * whole form. Messages are keys of the `errors` namespace with their placeholders.
 */
import type { ErrorBody, FieldIssue } from "../../../kernel/contract.ts";

/** A message to show: a key of the `errors` namespace, its placeholders, the spec code. */
export interface FieldMessage {
  key: string;
  params?: Record<string, unknown>;
  code?: number;
}

/** Where a refusal goes: messages by form field, and one for the whole form (or null). */
export interface ServerErrors<F extends string> {
  fields: Partial<Record<F, FieldMessage>>;
  form: FieldMessage | null;
}

function isIssue(value: unknown): value is FieldIssue {
  const v = value as Partial<FieldIssue> | null;
  return typeof v === "object" && v !== null && typeof v.path === "string" &&
    typeof v.key === "string";
}

/** The field errors of a `common.validation` body (none for any other body). */
export function fieldIssuesOf(body: ErrorBody | null | undefined): FieldIssue[] {
  if (body?.key !== "common.validation") return [];
  const issues = body.params.issues;
  return Array.isArray(issues) ? issues.filter(isIssue) : [];
}

function messageOf(key: string, params: unknown, code?: number): FieldMessage {
  const message: FieldMessage = { key };
  if (typeof params === "object" && params !== null && Object.keys(params).length) {
    message.params = params as Record<string, unknown>;
  }
  if (code !== undefined) message.code = code;
  return message;
}

/** How a form names its fields. */
export interface FieldMapping<F extends string> {
  /** The form field of an issue's path; `null` puts the message on the form. */
  field: (path: string) => F | null;
  /** The field of a refusal checked outside the schema (`users.emailExists` -> email). */
  keyField?: (key: string) => F | null;
  /** The form's message when no answer came. */
  fallback?: FieldMessage;
}

/** Places a refusal on the form; the first message of a field wins. */
export function serverErrors<F extends string>(
  body: ErrorBody | null | undefined,
  mapping: FieldMapping<F>,
): ServerErrors<F> {
  const result: ServerErrors<F> = { fields: {}, form: null };
  if (!body) return { ...result, form: mapping.fallback ?? { key: "messages.savingFailed" } };
  const issues = fieldIssuesOf(body);
  if (!issues.length) {
    const field = mapping.keyField?.(body.key) ?? null;
    const message = messageOf(body.key, body.params, body.code);
    if (field === null) result.form = message;
    else result.fields[field] = message;
    return result;
  }
  for (const issue of issues) {
    const field = mapping.field(issue.path);
    const message = messageOf(issue.key, issue.params);
    if (field === null) result.form ??= message;
    else result.fields[field] ??= message;
  }
  return result;
}

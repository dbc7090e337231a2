/** Client-side mirror of the server's user rules, and where a server refusal belongs. */
import { PASSWORD_CODE_KEYS, type PasswordChecker } from "../../lib/password-policy.ts";
import { isValidEmail, isValidPhone, nameError } from "../../lib/user-rules.ts";
import type { ApiErrorBody } from "../../lib/types.ts";
import type { UserDraft } from "./users-api.ts";

/** A form field, or `form` for errors that belong to no single field. */
export type UserField = keyof UserDraft | "form";

/** A message as a key of the `errors` namespace with its parameters. */
export interface FieldMessage {
  key: string;
  params?: Record<string, unknown>;
  code?: number;
}

/** The form's errors by field. */
export type UserFormErrors = Partial<Record<UserField, FieldMessage>>;

const NAME_LIMITS = { "validation.nameMin": 3, "validation.nameMax": 60 } as const;

/**
 * Checks a draft the way the server will; `passwordRequired` on creation. Without the password
 * policy (still loading) the password is left to the server.
 */
export function validateDraft(
  draft: UserDraft,
  opts: {
    passwordRequired: boolean;
    country: string;
    startPages: readonly string[];
    checkPassword: PasswordChecker | null;
  },
): UserFormErrors {
  const errors: UserFormErrors = {};
  const name = nameError(draft.name);
  if (name) {
    errors.name = { key: name, params: { count: NAME_LIMITS[name as keyof typeof NAME_LIMITS] } };
  }
  if (!isValidEmail(draft.email)) errors.email = { key: "validation.emailInvalid" };
  if (!isValidPhone(draft.phone, opts.country)) errors.phone = { key: "validation.phoneInvalid" };
  if (draft.start_page !== null && !opts.startPages.includes(draft.start_page)) {
    errors.start_page = { key: "users.startPageNotReachable" };
  }
  if (draft.password || opts.passwordRequired) {
    const code = opts.checkPassword?.(draft.password, { name: draft.name, email: draft.email })
      .code ?? null;
    if (!draft.password) errors.password = { key: "validation.required" };
    else if (code !== null) errors.password = { key: PASSWORD_CODE_KEYS[code], code };
    if (draft.password_confirmation !== draft.password) {
      errors.password_confirmation = { key: "validation.passwordMismatch" };
    }
  }
  return errors;
}

const FIELD_OF_KEY: Record<string, UserField> = {
  "users.emailExists": "email",
  "users.passwordMismatch": "password_confirmation",
  "users.startPageNotReachable": "start_page",
  "users.languageNotAvailable": "language",
  "users.weakPassword": "password",
  "users.passwordReused": "password",
  "users.passwordTooCommon": "password",
  "users.passwordContainsUserInfo": "password",
  "users.passwordRuleBroken": "password",
};

/** Places a server refusal on its field (request validation issues by their path). */
export function errorsFromServer(body: ApiErrorBody | null): UserFormErrors {
  if (!body) return { form: { key: "messages.savingFailed" } };
  const issues = body.params.issues;
  if (body.key === "common.validation" && Array.isArray(issues)) {
    const errors: UserFormErrors = {};
    for (const issue of issues as { path?: string; message?: string }[]) {
      const field = (issue.path ?? "").split(".")[0] as UserField;
      const key = issue.message?.startsWith("validation.") ? issue.message : "common.validation";
      const count = key === "validation.nameMin"
        ? 3
        : key === "validation.nameMax"
        ? 60
        : undefined;
      errors[field in FIELD_NAMES ? field : "form"] = { key, params: { count } };
    }
    return errors;
  }
  const message: FieldMessage = { key: body.key, params: body.params };
  if (body.code !== undefined) message.code = body.code;
  return { [FIELD_OF_KEY[body.key] ?? "form"]: message };
}

const FIELD_NAMES: Record<keyof UserDraft, true> = {
  name: true,
  email: true,
  phone: true,
  role: true,
  start_page: true,
  language: true,
  apps_roles: true,
  password: true,
  password_confirmation: true,
};

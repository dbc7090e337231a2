/** Client-side mirror of the server's user rules, and where a server refusal belongs. */
import { type FieldMessage, serverErrors } from "../../lib/field-errors.ts";
import { PASSWORD_CODE_KEYS, type PasswordChecker } from "../../lib/password-policy.ts";
import { isValidEmail, isValidPhone, nameError } from "../../lib/user-rules.ts";
import type { ErrorBody as ApiErrorBody } from "../../../../kernel/contract.ts";
import { kioskAllowed } from "../../../../modules/users/contract.ts";
import type { UserDraft } from "./users-api.ts";

/** A form field, or `form` for errors that belong to no single field. */
export type UserField = keyof UserDraft | "form";

export type { FieldMessage };

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
  if (draft.kiosk && !kioskAllowed(draft.role, draft.apps_roles)) {
    errors.kiosk = { key: "validation.kioskRights" };
  }
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

const FIELD_OF_KEY: Record<string, keyof UserDraft> = {
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

/** Places a server refusal on its field (field errors by the first segment of their path). */
export function errorsFromServer(body: ApiErrorBody | null): UserFormErrors {
  const { fields, form } = serverErrors<keyof UserDraft>(body, {
    field: (path) => {
      const field = path.split(".")[0]!;
      return field in FIELD_NAMES ? field as keyof UserDraft : null;
    },
    keyField: (key) => FIELD_OF_KEY[key] ?? null,
  });
  return form ? { ...fields, form } : fields;
}

const FIELD_NAMES: Record<keyof UserDraft, true> = {
  name: true,
  email: true,
  phone: true,
  role: true,
  start_page: true,
  language: true,
  apps_roles: true,
  kiosk: true,
  password: true,
  password_confirmation: true,
};

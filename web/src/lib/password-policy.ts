/**
 * The password policy the server enforces (modules/users/password_policy.ts), used as is for
 * the live strength meter: the same rules, the same common-password list, the same order. The
 * server stays the authority (it alone checks the password history, code 602). Its dictionaries
 * are large, so the forms load it in the background and work without it meanwhile.
 */
import { useEffect, useState } from "react";
import type {
  PasswordCheck,
  PasswordOwner,
  PasswordRuleCode,
} from "../../../modules/users/password_policy.ts";

export type { PasswordCheck, PasswordOwner, PasswordRuleCode };

/** Checks a password against the policy. */
export type PasswordChecker = (password: string, owner?: PasswordOwner) => PasswordCheck;

/** The catalogue key of each policy code (kernel/error_catalogue.ts). */
export const PASSWORD_CODE_KEYS = {
  601: "users.weakPassword",
  602: "users.passwordReused",
  603: "users.passwordTooCommon",
  604: "users.passwordContainsUserInfo",
  611: "users.passwordRuleBroken",
} as const;

let loading: Promise<PasswordChecker> | null = null;

/** Loads the policy once (a separate chunk with the zxcvbn dictionaries). */
export function loadPasswordPolicy(): Promise<PasswordChecker> {
  loading ??= import("../../../modules/users/password_policy.ts").then((m) => m.checkPassword);
  loading.catch(() => {
    loading = null;
  });
  return loading;
}

/** The policy's checker once loaded, `null` before. */
export function usePasswordPolicy(): PasswordChecker | null {
  const [checker, setChecker] = useState<PasswordChecker | null>(null);
  useEffect(() => {
    let live = true;
    loadPasswordPolicy().then((check) => live && setChecker(() => check), () => undefined);
    return () => {
      live = false;
    };
  }, []);
  return checker;
}

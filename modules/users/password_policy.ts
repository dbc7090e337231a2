/**
 * The password policy of spec 5 and the codes of spec 8.2, as one pure function that the server
 * enforces and the web form mirrors live (the server stays the authority; it alone knows the
 * password history, code 602).
 *
 * Order of the checks, first failure wins:
 * 1. 601 weak: not at least 8 characters with an uppercase letter, a lowercase letter, a digit
 *    and a symbol (spec 5);
 * 2. 611 breaks a security rule: longer than the maximum length (what is hashed is bounded);
 * 3. 603 too common: the password, or its letters without leading/trailing digits and symbols
 *    (also read back from l33t, `P@ssw0rd1!` -> `password`), is in zxcvbn's common-password list;
 * 4. 604 contains user information: a part of the user's name or e-mail (3+ characters);
 * 5. 601 weak: zxcvbn-ts scores it below 3 (of 4), given the user's name and e-mail as inputs.
 */
import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import * as common from "@zxcvbn-ts/language-common";
import * as english from "@zxcvbn-ts/language-en";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./contract.ts";

export { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH };
/** Lowest accepted zxcvbn score (0-4). */
export const PASSWORD_MIN_SCORE = 3;

/** The codes a password alone can earn (602, reuse, needs the history on the server). */
export type PasswordRuleCode = 601 | 603 | 604 | 611;

/** Which of the character rules of spec 5 hold. */
export interface PasswordRules {
  length: boolean;
  uppercase: boolean;
  lowercase: boolean;
  digit: boolean;
  symbol: boolean;
}

/** The verdict on one password. */
export interface PasswordCheck {
  /** The first rule broken, or `null` when the policy accepts the password. */
  code: PasswordRuleCode | null;
  rules: PasswordRules;
  /** zxcvbn score 0 (guessable) to 4 (very strong). */
  score: number;
}

/** Whose password it is: parts of the name and e-mail may not appear in it. */
export interface PasswordOwner {
  name?: string | undefined;
  email?: string | undefined;
}

let factory: ZxcvbnFactory | undefined;
let commonPasswords: ReadonlySet<string> | undefined;

function estimator(): ZxcvbnFactory {
  factory ??= new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
    translations: english.translations,
  });
  return factory;
}

function commonList(): ReadonlySet<string> {
  commonPasswords ??= new Set(common.dictionary["passwords-common"]);
  return commonPasswords;
}

const L33T: Record<string, string> = {
  "@": "a",
  "4": "a",
  "8": "b",
  "3": "e",
  "1": "i",
  "!": "i",
  "0": "o",
  "$": "s",
  "5": "s",
  "7": "t",
};

function unl33t(text: string): string {
  return [...text].map((c) => L33T[c] ?? c).join("");
}

/** The character rules of spec 5. */
export function passwordRules(password: string): PasswordRules {
  return {
    length: [...password].length >= PASSWORD_MIN_LENGTH,
    uppercase: /\p{Lu}/u.test(password),
    lowercase: /\p{Ll}/u.test(password),
    digit: /\p{Nd}/u.test(password),
    symbol: /[^\p{L}\p{Nd}\s]/u.test(password),
  };
}

/** True when the password is a well-known one, possibly decorated with digits and symbols. */
export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase();
  const core = lower.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, "");
  const candidates = [lower, core, unl33t(lower), unl33t(lower).replace(/^[^a-z]+|[^a-z]+$/g, "")];
  return candidates.some((c) => c.length >= 4 && commonList().has(c));
}

/** The name and e-mail parts (3+ characters, lower case) a password may not contain. */
export function userInfoParts(owner: PasswordOwner): string[] {
  const email = (owner.email ?? "").toLowerCase().trim();
  const at = email.lastIndexOf("@");
  const local = at === -1 ? email : email.slice(0, at);
  const domain = at === -1 ? "" : email.slice(at + 1).split(".")[0] ?? "";
  const parts = [
    ...(owner.name ?? "").toLowerCase().split(/[\s'’.,-]+/u),
    local,
    ...local.split(/[^\p{L}\p{Nd}]+/u),
    ...domain.split(/[^\p{L}\p{Nd}]+/u),
  ];
  return [...new Set(parts.map((p) => p.trim()).filter((p) => [...p].length >= 3))];
}

/** True when the password contains a part of the owner's name or e-mail. */
export function containsUserInfo(password: string, owner: PasswordOwner): boolean {
  const lower = password.toLowerCase();
  const plain = unl33t(lower);
  return userInfoParts(owner).some((part) => lower.includes(part) || plain.includes(part));
}

/** Checks a password against the policy; see the module comment for the order of the checks. */
export function checkPassword(password: string, owner: PasswordOwner = {}): PasswordCheck {
  const rules = passwordRules(password);
  const score = password
    ? estimator().check(password.slice(0, PASSWORD_MAX_LENGTH), userInfoParts(owner)).score
    : 0;
  const code: PasswordRuleCode | null = !Object.values(rules).every(Boolean)
    ? 601
    : [...password].length > PASSWORD_MAX_LENGTH
    ? 611
    : isCommonPassword(password)
    ? 603
    : containsUserInfo(password, owner)
    ? 604
    : score < PASSWORD_MIN_SCORE
    ? 601
    : null;
  return { code, rules, score };
}

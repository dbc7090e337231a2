import { Check, X } from "lucide-react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import {
  PASSWORD_CODE_KEYS,
  type PasswordCheck,
  type PasswordOwner,
  usePasswordPolicy,
} from "../lib/password-policy.ts";
import { cn } from "./cn.ts";

const RULES = ["length", "uppercase", "lowercase", "digit", "symbol"] as const;
const LEVELS = ["veryWeak", "weak", "fair", "strong", "veryStrong"] as const;
const NONE = { length: false, uppercase: false, lowercase: false, digit: false, symbol: false };

/**
 * The live password check of a form: a strength meter (zxcvbn score), the character rules of
 * spec 5 ticked as they hold, and the first broken rule with its code in small print, as the
 * server would answer it. `fieldHasError`: the form already shows the password's error under the
 * field, so the live line stays hidden (one message, not two).
 */
export function PasswordStrength({
  password,
  owner,
  id,
  fieldHasError = false,
}: {
  password: string;
  owner: PasswordOwner;
  id?: string;
  fieldHasError?: boolean;
}) {
  const { t } = useTranslation(["users", "errors"]);
  const { name, email } = owner;
  const checker = usePasswordPolicy();
  const check: PasswordCheck = useMemo(
    () => checker?.(password, { name, email }) ?? { code: null, rules: NONE, score: 0 },
    [checker, password, name, email],
  );
  const tone = check.code !== null || check.score < 3
    ? check.score <= 1 ? "bg-state-critical" : "bg-state-warning"
    : "bg-state-ok";
  return (
    <div id={id} className="flex flex-col gap-1.5" aria-live="polite">
      <div className="flex items-center gap-2">
        <div
          className="grid flex-1 grid-cols-4 gap-1"
          role="meter"
          aria-label={t("password.strength")}
          aria-valuemin={0}
          aria-valuemax={4}
          aria-valuenow={password ? check.score : 0}
        >
          {[1, 2, 3, 4].map((step) => (
            <span
              key={step}
              className={cn(
                "h-1.5 rounded-full",
                password && check.score >= step ? tone : "bg-surface-muted",
              )}
            />
          ))}
        </div>
        <span className="w-24 text-right text-xs text-muted-foreground">
          {password && checker ? t(`password.levels.${LEVELS[check.score] ?? "veryWeak"}`) : null}
        </span>
      </div>
      <ul className="grid grid-cols-2 gap-x-3 gap-y-0.5 text-xs">
        {RULES.map((rule) => (
          <li
            key={rule}
            className={cn(
              "flex items-center gap-1",
              check.rules[rule] ? "text-state-ok" : "text-muted-foreground",
            )}
          >
            {check.rules[rule]
              ? <Check aria-hidden className="size-3.5" />
              : <X aria-hidden className="size-3.5" />}
            {t(`password.rules.${rule}`)}
          </li>
        ))}
      </ul>
      {password && check.code !== null && !fieldHasError
        ? (
          <p className="text-xs text-state-critical">
            {t(`errors:${PASSWORD_CODE_KEYS[check.code]}`)}{" "}
            <small className="text-muted-foreground">({check.code})</small>
          </p>
        )
        : null}
    </div>
  );
}

import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api, ApiError } from "../../lib/api.ts";
import { PASSWORD_CODE_KEYS, usePasswordPolicy } from "../../lib/password-policy.ts";
import { useSession } from "../../lib/session-atoms.ts";
import { useAction } from "../../lib/use-action.ts";
import { useErrorText } from "../../lib/use-error-text.ts";
import { Button } from "../../ui/button.tsx";
import { FormField } from "../../ui/form-field.tsx";
import { Input } from "../../ui/input.tsx";
import { CodedText } from "../../ui/coded-text.tsx";
import { PasswordStrength } from "../../ui/password-strength.tsx";
import { Card } from "./settings-section.tsx";

/** The caller's password change: the current one, the new one with its strength, confirmed. */
export function PasswordCard(
  { notify }: { notify: (text: string, tone?: "success" | "error") => void },
) {
  const { t } = useTranslation(["user-settings", "users", "errors"]);
  const { user } = useSession();
  const errorText = useErrorText();
  const checkPassword = usePasswordPolicy();
  const [current, setCurrent] = useState("");
  const [password, setPassword] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const [error, setError] = useState<{ field: string; text: string; code?: number } | null>(
    null,
  );
  const change = useAction(async () => {
    try {
      await api.post(`/usm/users/current/${encodeURIComponent(user.user_id)}/password`, {
        current_password: current,
        password,
        password_confirmation: confirmation,
      }, { handleErrors: true });
      setCurrent("");
      setPassword("");
      setConfirmation("");
      setError(null);
      notify(t("password.changed"));
    } catch (failure) {
      const { text, code: failed } = errorText(failure);
      const body = failure instanceof ApiError ? failure.body : null;
      const field = body?.key === "users.currentPasswordWrong"
        ? "current"
        : body?.key === "users.passwordMismatch"
        ? "confirmation"
        : "password";
      setError({ field, text, ...(failed === undefined ? {} : { code: failed }) });
    }
  });
  const busy = change.busy;

  const submit = async () => {
    const code = checkPassword?.(password, { name: user.name, email: user.email }).code ?? null;
    if (!current) return setError({ field: "current", text: t("errors:validation.required") });
    if (code !== null) {
      return setError({ field: "password", text: t(`errors:${PASSWORD_CODE_KEYS[code]}`), code });
    }
    if (confirmation !== password) {
      return setError({ field: "confirmation", text: t("errors:validation.passwordMismatch") });
    }
    await change.run();
  };
  const errorOf = (field: string) =>
    error?.field === field ? <CodedText text={error.text} code={error.code} /> : null;

  return (
    <Card title={t("password.title")}>
      <form
        noValidate
        className="grid gap-3 sm:grid-cols-2"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <FormField
          label={t("password.current")}
          error={errorOf("current")}
          className="sm:col-span-2"
        >
          {(p) => (
            <Input
              {...p}
              type="password"
              autoComplete="current-password"
              value={current}
              onChange={(e) => setCurrent(e.target.value)}
            />
          )}
        </FormField>
        <FormField label={t("password.new")} error={errorOf("password")}>
          {(p) => (
            <Input
              {...p}
              type="password"
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          )}
        </FormField>
        <FormField label={t("users:fields.passwordConfirmation")} error={errorOf("confirmation")}>
          {(p) => (
            <Input
              {...p}
              type="password"
              autoComplete="new-password"
              value={confirmation}
              onChange={(e) => setConfirmation(e.target.value)}
            />
          )}
        </FormField>
        <div className="sm:col-span-2">
          <PasswordStrength
            password={password}
            owner={user}
            fieldHasError={error?.field === "password"}
          />
        </div>
        <div className="flex justify-end sm:col-span-2">
          <Button type="submit" disabled={busy} aria-busy={busy}>{t("password.submit")}</Button>
        </div>
      </form>
    </Card>
  );
}

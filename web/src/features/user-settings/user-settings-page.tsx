import { useSearch } from "@tanstack/react-router";
import { useSetAtom } from "jotai";
import { CircleCheck, CircleMinus, MailCheck, MailWarning, Send } from "lucide-react";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { setUiLanguage } from "../../i18n/i18n.ts";
import { denialReason } from "../../lib/access.ts";
import { api, ApiError } from "../../lib/api.ts";
import { toUiLanguage } from "../../lib/language.ts";
import { type ModuleId, MODULES } from "../../lib/modules.ts";
import { PASSWORD_CODE_KEYS, usePasswordPolicy } from "../../lib/password-policy.ts";
import { currentUserAtom, useAccessContext, useSession } from "../../lib/session-atoms.ts";
import type { CurrentUserDto as CurrentUser } from "../../../../modules/users/contract.ts";
import { isValidPhone, nameError, reachableStartPages } from "../../lib/user-rules.ts";
import { useErrorText } from "../../lib/use-error-text.ts";
import { Button } from "../../ui/button.tsx";
import { FormField } from "../../ui/form-field.tsx";
import { Input, Select } from "../../ui/input.tsx";
import { Page } from "../../ui/page.tsx";
import { PasswordStrength } from "../../ui/password-strength.tsx";
import { Toast } from "../../ui/toast.tsx";
import { NotificationSettings } from "./notification-settings.tsx";
import { useFormatters } from "../../lib/use-formatters.ts";
import { StartPageSelect } from "../../ui/start-page-select.tsx";

const LISTED: readonly ModuleId[] = [
  "data-export",
  "infrastructure-setup",
  "scada-connector",
  "user-management",
  "global-settings",
  "api-settings",
  "metering-information",
  "grid-monitoring",
  "visual-statistics",
  "power-quality",
  "io-monitoring",
  "api-doc",
];

function Card(
  { id, title, children, className }: {
    id?: string;
    title: string;
    children: ReactNode;
    className?: string;
  },
) {
  return (
    <section
      id={id}
      aria-label={title}
      className={`scroll-mt-16 rounded-lg border bg-surface ${className ?? ""}`}
    >
      <h2 className="border-b px-4 py-2.5 text-sm font-semibold">{title}</h2>
      <div className="px-4 py-3">{children}</div>
    </section>
  );
}

/** The module's role held by the user (last segment of the apps_roles entry), if any. */
function roleFor(appsRoles: readonly string[], key: string): string | null {
  const entry = appsRoles.find((e) => e.startsWith(`${key}:`));
  return entry ? (entry.split(":").pop() ?? null) : null;
}

/** Keeps the shell's copy of the current user in step with what the server answered. */
function useSaveUser(): (user: CurrentUser) => void {
  return useSetAtom(currentUserAtom) as (user: CurrentUser) => void;
}

/**
 * My Profile & Settings: the user's own name, phone, language, start page and password, the
 * e-mail validation, module access, and the notification settings (#notification-settings).
 */
export function UserSettingsPage() {
  const { t } = useTranslation(["user-settings", "users", "modules", "common"]);
  const raw = useSearch({ strict: false }) as Record<string, unknown>;
  const outcome = raw["email-validation"];
  const [toast, setToast] = useState<{ text: string; tone: "success" | "error" } | null>(null);
  const notify = (text: string, tone: "success" | "error" = "success") => setToast({ text, tone });

  return (
    <Page title={t("title")} subtitle={t("subtitle")}>
      {outcome === "done" || outcome === "invalid"
        ? (
          <p
            role="status"
            className={`flex items-center gap-2 rounded-md border px-3 py-2 text-sm ${
              outcome === "done"
                ? "border-state-ok bg-state-ok-soft"
                : "border-state-warning bg-state-warning-soft"
            }`}
          >
            {outcome === "done"
              ? <MailCheck aria-hidden className="size-4 text-state-ok" />
              : <MailWarning aria-hidden className="size-4 text-state-warning" />}
            {outcome === "done" ? t("emailValidation.done") : t("emailValidation.invalid")}
          </p>
        )
        : null}
      <div className="grid gap-4 xl:grid-cols-2">
        <ProfileCard notify={notify} />
        <div className="grid content-start gap-4">
          <PasswordCard notify={notify} />
          <ModuleAccessCard />
        </div>
        <Card id="notification-settings" title={t("notifications.title")} className="xl:col-span-2">
          <NotificationSettings />
        </Card>
      </div>
      <Toast
        open={toast !== null}
        tone={toast?.tone ?? "success"}
        onOpenChange={(open) => !open && setToast(null)}
      >
        {toast?.text}
      </Toast>
    </Page>
  );
}

function ProfileCard({ notify }: { notify: (text: string, tone?: "success" | "error") => void }) {
  const { t, i18n } = useTranslation(["user-settings", "users", "modules", "common", "errors"]);
  const format = useFormatters();
  const { user, claims, customer, config } = useSession();
  const access = useAccessContext();
  const saveUser = useSaveUser();
  const errorText = useErrorText();
  const [name, setName] = useState(user.name);
  const [phone, setPhone] = useState(user.phone ?? "");
  const [startPage, setStartPage] = useState(user.start_page ?? "");
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const path = `/usm/users/current/${encodeURIComponent(user.user_id)}`;
  const languages = customer.available_languages?.length
    ? customer.available_languages
    : ["en", "fr", "de", "uk"];
  const startPages = reachableStartPages({ ...access, appsRoles: user.apps_roles });
  const nameProblem = nameError(name);
  const phoneProblem = isValidPhone(phone, customer.country) ? null : "validation.phoneInvalid";
  const latestLogin = user.latest_login ? format.dateTime(user.latest_login) : t("notSet");

  const patch = async (body: Record<string, unknown>): Promise<boolean> => {
    setBusy(true);
    try {
      saveUser(await api.patch<CurrentUser>(path, body, { handleErrors: true }));
      return true;
    } catch (error) {
      notify(errorText(error).text, "error");
      return false;
    } finally {
      setBusy(false);
    }
  };
  const save = async () => {
    setTried(true);
    if (nameProblem || phoneProblem) return;
    const ok = await patch({
      name: name.trim(),
      phone: phone.trim() || null,
      start_page: startPage || null,
    });
    if (ok) notify(t("saved"));
  };
  const chooseLanguage = async (code: string) => {
    const language = toUiLanguage(code);
    if (language && (await patch({ language }))) await setUiLanguage(language);
  };
  const requestValidation = async () => {
    setBusy(true);
    try {
      const sent = await api.post<{ email: string }>(`${path}/email-validation`, undefined, {
        handleErrors: true,
      });
      setSentTo(sent.email);
    } catch (error) {
      notify(errorText(error).text, "error");
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title={t("profile")}>
      <form
        noValidate
        className="grid gap-3 sm:grid-cols-2"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <FormField
          label={t("fields.name")}
          className="sm:col-span-2"
          error={tried && nameProblem
            ? t(`errors:${nameProblem}`, { count: nameProblem === "validation.nameMax" ? 60 : 3 })
            : null}
        >
          {(p) => (
            <Input
              {...p}
              value={name}
              maxLength={60}
              onChange={(e) => setName(e.target.value)}
            />
          )}
        </FormField>
        <div className="flex flex-col gap-1 sm:col-span-2">
          <span className="text-xs font-medium text-muted-foreground">{t("fields.email")}</span>
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <span className="font-medium">{user.email}</span>
            {user.email_validated
              ? (
                <span className="inline-flex items-center gap-1 text-xs text-state-ok">
                  <CircleCheck aria-hidden className="size-3.5" />
                  {t("emailValidation.validated")}
                </span>
              )
              : (
                <>
                  <span className="inline-flex items-center gap-1 text-xs text-state-warning">
                    <MailWarning aria-hidden className="size-3.5" />
                    {t("emailValidation.notValidated")}
                  </span>
                  <Button size="sm" variant="secondary" disabled={busy} onClick={requestValidation}>
                    <Send aria-hidden />
                    {sentTo ? t("emailValidation.resend") : t("emailValidation.send")}
                  </Button>
                </>
              )}
          </div>
          {sentTo
            ? (
              <p role="status" className="text-xs text-muted-foreground">
                {t("emailValidation.sent", { email: sentTo })}
              </p>
            )
            : null}
        </div>
        <FormField
          label={t("fields.phone")}
          hint={t("users:form.phoneHint")}
          error={tried && phoneProblem ? t(`errors:${phoneProblem}`) : null}
        >
          {(p) => (
            <Input
              {...p}
              type="tel"
              value={phone}
              onChange={(e) => setPhone(e.target.value)}
            />
          )}
        </FormField>
        <FormField label={t("fields.language")} hint={t("languageHint")}>
          {(p) => (
            <Select
              {...p}
              value={toUiLanguage(i18n.language) ?? user.language}
              disabled={busy}
              onChange={(e) => void chooseLanguage(e.target.value)}
            >
              {languages.map((code) => (
                <option key={code} value={code} lang={code}>
                  {t(`common:languages.${code}`, { defaultValue: code })}
                </option>
              ))}
            </Select>
          )}
        </FormField>
        <FormField label={t("fields.startPage")} className="sm:col-span-2">
          {(p) => (
            <StartPageSelect
              {...p}
              value={startPage || null}
              onChange={(path) => setStartPage(path ?? "")}
              startPages={startPages}
              defaultLabel={t("defaultStartPage", { path: config.defaultStartPage })}
            />
          )}
        </FormField>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm sm:col-span-2">
          <dt className="text-muted-foreground">{t("fields.role")}</dt>
          <dd>{t(`users:roles.${user.role ?? claims.role}`)}</dd>
          <dt className="text-muted-foreground">{t("fields.latestLogin")}</dt>
          <dd className="tabular">{latestLogin}</dd>
        </dl>
        <div className="flex justify-end sm:col-span-2">
          <Button type="submit" disabled={busy} aria-busy={busy}>{t("save")}</Button>
        </div>
      </form>
    </Card>
  );
}

function PasswordCard({ notify }: { notify: (text: string, tone?: "success" | "error") => void }) {
  const { t } = useTranslation(["user-settings", "users", "errors"]);
  const { user } = useSession();
  const errorText = useErrorText();
  const checkPassword = usePasswordPolicy();
  const [current, setCurrent] = useState("");
  const [password, setPassword] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const [error, setError] = useState<{ field: string; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    const code = checkPassword?.(password, { name: user.name, email: user.email }).code ?? null;
    if (!current) return setError({ field: "current", text: t("errors:validation.required") });
    if (code !== null) {
      return setError({
        field: "password",
        text: `${t(`errors:${PASSWORD_CODE_KEYS[code]}`)} (${code})`,
      });
    }
    if (confirmation !== password) {
      return setError({ field: "confirmation", text: t("errors:validation.passwordMismatch") });
    }
    setBusy(true);
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
      setError({ field, text: failed === undefined ? text : `${text} (${failed})` });
    } finally {
      setBusy(false);
    }
  };
  const errorOf = (field: string) => (error?.field === field ? error.text : null);

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
          <PasswordStrength password={password} owner={user} />
        </div>
        <div className="flex justify-end sm:col-span-2">
          <Button type="submit" disabled={busy} aria-busy={busy}>{t("password.submit")}</Button>
        </div>
      </form>
    </Card>
  );
}

function ModuleAccessCard() {
  const { t } = useTranslation(["user-settings", "modules"]);
  const { customer } = useSession();
  const access = useAccessContext();
  const modules = LISTED.filter(
    (id) =>
      !MODULES[id].access.requiresCustomerApplication ||
      customer.applications.includes(MODULES[id].access.key),
  );
  return (
    <Card title={t("moduleAccess")}>
      <ul className="divide-y">
        {modules.map((id) => {
          const denial = denialReason(MODULES[id].access, access);
          const role = roleFor(access.appsRoles, MODULES[id].access.key);
          return (
            <li key={id} className="flex items-center gap-2 py-1.5 text-sm">
              {denial === null
                ? <CircleCheck aria-hidden className="size-4 text-state-ok" />
                : <CircleMinus aria-hidden className="size-4 text-state-offline" />}
              <span className="flex-1">{t(`modules:${id}.title`)}</span>
              <span className="text-xs text-muted-foreground">
                {denial === null
                  ? role
                    ? t("access.grantedWithRole", {
                      role: t(`roles.${role}`, { defaultValue: role }),
                    })
                    : t("access.granted")
                  : t(`access.${denial}`)}
              </span>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}

import { useSetAtom } from "jotai";
import { CircleCheck, MailWarning, Send } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { setUiLanguage } from "../../i18n/i18n.ts";
import { api } from "../../lib/api.ts";
import { toUiLanguage } from "../../lib/language.ts";
import { currentUserAtom, useAccessContext, useSession } from "../../lib/session-atoms.ts";
import { useAction } from "../../lib/use-action.ts";
import { useErrorText } from "../../lib/use-error-text.ts";
import { useFormatters } from "../../lib/use-formatters.ts";
import { isValidPhone, nameError, reachableStartPages } from "../../lib/user-rules.ts";
import { Button } from "../../ui/button.tsx";
import { FormField } from "../../ui/form-field.tsx";
import { Input, Select } from "../../ui/input.tsx";
import { StartPageSelect } from "../../ui/start-page-select.tsx";
import { Card } from "./settings-section.tsx";
import type {
  CurrentUserDto as CurrentUser,
  EmailValidationSentDto,
  ProfilePatch,
} from "../../../../modules/users/contract.ts";

/** Keeps the shell's copy of the current user in step with what the server answered. */
function useSaveUser(): (user: CurrentUser) => void {
  return useSetAtom(currentUserAtom) as (user: CurrentUser) => void;
}

/** The user's own name, phone, language and start page, and the e-mail validation. */
export function ProfileCard(
  { notify }: { notify: (text: string, tone?: "success" | "error") => void },
) {
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
  const [sentTo, setSentTo] = useState<string | null>(null);
  const path = `/usm/users/current/${encodeURIComponent(user.user_id)}`;
  const languages = customer.available_languages?.length
    ? customer.available_languages
    : ["en", "fr", "de", "uk"];
  const startPages = reachableStartPages({ ...access, appsRoles: user.apps_roles });
  const nameProblem = nameError(name);
  const phoneProblem = isValidPhone(phone, customer.country) ? null : "validation.phoneInvalid";
  const latestLogin = user.latest_login ? format.dateTime(user.latest_login) : t("notSet");

  const patching = useAction(async (body: ProfilePatch) => {
    try {
      saveUser(await api.patch<CurrentUser>(path, body, { handleErrors: true }));
      return true;
    } catch (error) {
      notify(errorText(error).text, "error");
      return false;
    }
  });
  const patch = async (body: ProfilePatch) => (await patching.run(body)) === true;
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
  const validation = useAction(async () => {
    try {
      const sent = await api.post<EmailValidationSentDto>(`${path}/email-validation`, undefined, {
        handleErrors: true,
      });
      setSentTo(sent.email);
    } catch (error) {
      notify(errorText(error).text, "error");
    }
  });
  const requestValidation = () => void validation.run();
  const busy = patching.busy || validation.busy;

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

import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { AccessContext } from "../../lib/access.ts";
import type { AppConfig } from "../../lib/config.ts";
import type { CustomerDto as Customer } from "../../../../modules/customers/contract.ts";
import type { Role } from "../../../../modules/users/contract.ts";
import {
  type AppRole,
  appRoleOf,
  canGrantAppRole,
  canGrantRole,
  GRANTABLE_MODULES,
  reachableStartPages,
  ROLES,
  withAppRole,
} from "../../lib/user-rules.ts";
import { FormField } from "../../ui/form-field.tsx";
import { Input, Select } from "../../ui/input.tsx";
import { Cell, Table, TableBody } from "../../ui/table.tsx";
import { CodedText } from "../../ui/coded-text.tsx";
import { PasswordStrength } from "../../ui/password-strength.tsx";
import type { FieldMessage, UserField, UserFormErrors } from "./user-form-rules.ts";
import type { UserDraft } from "./users-api.ts";
import { StartPageSelect } from "../../ui/start-page-select.tsx";
import { Switch } from "../../ui/switch.tsx";
import { kioskAllowed } from "../../../../modules/users/contract.ts";

/** Who edits: their role and module access bound what they may grant. */
export interface Granter {
  role: Role;
  appsRoles: readonly string[];
}

/** The access context of a draft: what its start page may be. */
export function draftAccess(
  draft: UserDraft,
  customer: Customer,
  config: AppConfig,
): AccessContext {
  return {
    appsRoles: draft.apps_roles,
    defaultStartPageKey: config.defaultStartPageKey,
    appsOpenToAll: config.appsOpenToAll,
    customerApplications: customer.applications ?? [],
  };
}

/**
 * Every field of a user: identity, role, language, start page (only pages the draft's module
 * access reaches), module access per app, and the password with its live check.
 */
export function UserForm({
  draft,
  onChange,
  errors,
  mode,
  granter,
  customer,
  config,
  granted,
  passwordSettable = true,
}: {
  draft: UserDraft;
  onChange: (draft: UserDraft) => void;
  errors: UserFormErrors;
  mode: "create" | "edit";
  granter: Granter;
  customer: Customer;
  config: AppConfig;
  /** Entries the user holds already: they may be kept even if the granter lacks them. */
  granted: readonly string[];
  /** False for one's own account: that password changes in My Profile & Settings. */
  passwordSettable?: boolean;
}) {
  const { t } = useTranslation(["users", "modules", "common", "errors", "user-settings"]);
  const set = <K extends keyof UserDraft>(key: K, value: UserDraft[K]) =>
    onChange({ ...draft, [key]: value });
  const message = (field: UserField) => {
    const m: FieldMessage | undefined = errors[field];
    if (!m) return null;
    const text = t(`errors:${m.key}`, { ...m.params, defaultValue: t("errors:common.validation") });
    return <CodedText text={text} code={m.code} />;
  };
  const languages = customer.available_languages?.length
    ? customer.available_languages
    : ["en", "fr", "de", "uk"];
  const startPages = reachableStartPages(draftAccess(draft, customer, config));
  const modules = GRANTABLE_MODULES.filter((m) =>
    !m.customerApplication || (customer.applications ?? []).includes(m.key)
  );
  const canOffer = (key: string, role: AppRole) =>
    granted.includes(`${key}:${role}`) || canGrantAppRole(granter, key, role);

  return (
    <div className="grid gap-5 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
      <fieldset className="grid content-start gap-3 sm:grid-cols-2">
        <legend className="mb-2 text-sm font-semibold">{t("form.identity")}</legend>
        <FormField label={t("fields.name")} error={message("name")} className="sm:col-span-2">
          {(p) => (
            <Input
              {...p}
              value={draft.name}
              maxLength={60}
              autoComplete="off"
              onChange={(e) => set("name", e.target.value)}
            />
          )}
        </FormField>
        <FormField label={t("fields.email")} error={message("email")}>
          {(p) => (
            <Input
              {...p}
              type="email"
              value={draft.email}
              autoComplete="off"
              onChange={(e) => set("email", e.target.value)}
            />
          )}
        </FormField>
        <FormField label={t("fields.phone")} error={message("phone")} hint={t("form.phoneHint")}>
          {(p) => (
            <Input
              {...p}
              type="tel"
              value={draft.phone}
              autoComplete="off"
              onChange={(e) => set("phone", e.target.value)}
            />
          )}
        </FormField>
        <FormField label={t("fields.role")} error={message("role")}>
          {(p) => (
            <Select
              {...p}
              value={draft.role}
              onChange={(e) => set("role", e.target.value as Role)}
            >
              {ROLES.map((role) => (
                <option
                  key={role}
                  value={role}
                  disabled={role !== draft.role && !canGrantRole(granter.role, role)}
                >
                  {t(`roles.${role}`)}
                </option>
              ))}
            </Select>
          )}
        </FormField>
        <FormField label={t("fields.language")} error={message("language")}>
          {(p) => (
            <Select
              {...p}
              value={draft.language}
              onChange={(e) => set("language", e.target.value)}
            >
              {languages.map((code) => (
                <option key={code} value={code} lang={code}>
                  {t(`common:languages.${code}`, { defaultValue: code })}
                </option>
              ))}
            </Select>
          )}
        </FormField>
        <FormField
          label={t("fields.startPage")}
          error={message("start_page")}
          hint={t("form.startPageHint")}
          className="sm:col-span-2"
        >
          {(p) => (
            <StartPageSelect
              {...p}
              value={draft.start_page}
              onChange={(path) => set("start_page", path)}
              startPages={startPages}
              defaultLabel={t("form.defaultStartPage", { path: config.defaultStartPage })}
            />
          )}
        </FormField>
        <KioskField
          checked={draft.kiosk}
          allowed={kioskAllowed(draft.role, draft.apps_roles)}
          onChange={(kiosk) => set("kiosk", kiosk)}
          error={message("kiosk")}
        />
        {passwordSettable
          ? (
            <PasswordFields
              draft={draft}
              set={set}
              message={message}
              required={mode === "create"}
            />
          )
          : <p className="text-xs text-muted-foreground sm:col-span-2">{t("form.ownPassword")}</p>}
      </fieldset>
      <fieldset className="min-w-0">
        <legend className="mb-2 text-sm font-semibold">{t("fields.moduleAccess")}</legend>
        <p className="mb-2 text-xs text-muted-foreground">{t("form.moduleAccessHint")}</p>
        <Table>
          <TableBody className="divide-y">
            {modules.map((module) => {
              const role = appRoleOf(draft.apps_roles, module.key);
              const label = t(module.label);
              return (
                <tr key={module.key}>
                  <th scope="row" className="py-1.5 pr-3 text-left font-normal">{label}</th>
                  <Cell className="w-44 py-1">
                    <Select
                      aria-label={t("form.accessOf", { module: label })}
                      value={role ?? ""}
                      onChange={(e) =>
                        set(
                          "apps_roles",
                          withAppRole(
                            draft.apps_roles,
                            module.key,
                            (e.target.value || null) as AppRole | null,
                          ),
                        )}
                    >
                      <option value="">{t("access.none")}</option>
                      <option
                        value="user"
                        disabled={role !== "user" && !canOffer(module.key, "user")}
                      >
                        {t("access.user")}
                      </option>
                      <option
                        value="admin"
                        disabled={role !== "admin" && !canOffer(module.key, "admin")}
                      >
                        {t("access.admin")}
                      </option>
                    </Select>
                  </Cell>
                </tr>
              );
            })}
          </TableBody>
        </Table>
        {message("apps_roles")
          ? <p role="alert" className="mt-1 text-xs text-state-critical">{message("apps_roles")}</p>
          : null}
      </fieldset>
    </div>
  );
}

/** The kiosk choice: a wall display stays signed in, for a plain user only. */
function KioskField({ checked, allowed, onChange, error }: {
  checked: boolean;
  allowed: boolean;
  onChange: (kiosk: boolean) => void;
  error: ReactNode;
}) {
  const { t } = useTranslation("users");
  return (
    <div className="flex items-start gap-3 rounded-md border p-3 sm:col-span-2">
      <Switch
        id="user-kiosk"
        checked={checked}
        disabled={!checked && !allowed}
        onCheckedChange={onChange}
        aria-describedby="user-kiosk-hint"
      />
      <div className="grid gap-1">
        <label htmlFor="user-kiosk" className="text-sm font-medium">{t("fields.kiosk")}</label>
        <p id="user-kiosk-hint" className="text-xs text-muted-foreground">
          {allowed ? t("form.kioskHint") : t("form.kioskNotAllowed")}
        </p>
        {error ? <p role="alert" className="text-xs text-state-critical">{error}</p> : null}
      </div>
    </div>
  );
}

function PasswordFields({
  draft,
  set,
  message,
  required,
}: {
  draft: UserDraft;
  set: <K extends keyof UserDraft>(key: K, value: UserDraft[K]) => void;
  message: (field: UserField) => ReactNode;
  required: boolean;
}) {
  const { t } = useTranslation("users");
  return (
    <div className="grid gap-3 rounded-md border border-dashed p-3 sm:col-span-2 sm:grid-cols-2">
      <p className="text-xs text-muted-foreground sm:col-span-2">
        {required ? t("form.passwordCreate") : t("form.passwordReset")}
      </p>
      <FormField label={t("fields.password")} error={message("password")}>
        {(p) => (
          <Input
            {...p}
            type="password"
            autoComplete="new-password"
            value={draft.password}
            onChange={(e) => set("password", e.target.value)}
          />
        )}
      </FormField>
      <FormField label={t("fields.passwordConfirmation")} error={message("password_confirmation")}>
        {(p) => (
          <Input
            {...p}
            type="password"
            autoComplete="new-password"
            value={draft.password_confirmation}
            onChange={(e) => set("password_confirmation", e.target.value)}
          />
        )}
      </FormField>
      <div className="sm:col-span-2">
        <PasswordStrength
          password={draft.password}
          owner={draft}
          fieldHasError={message("password") !== null}
        />
      </div>
    </div>
  );
}

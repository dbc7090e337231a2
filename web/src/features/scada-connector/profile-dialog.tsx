import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { ProfileDto } from "../../../../modules/scada/contract.ts";
import { api, ApiError } from "../../lib/api.ts";
import { serverErrors } from "../../lib/field-errors.ts";
import { useAction } from "../../lib/use-action.ts";
import { useErrorText } from "../../lib/use-error-text.ts";
import { Button } from "../../ui/button.tsx";
import {
  Dialog,
  DialogContent,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../ui/dialog.tsx";
import { FormField } from "../../ui/form-field.tsx";
import { Input } from "../../ui/input.tsx";
import { Switch } from "../../ui/switch.tsx";
import {
  checkProfile,
  DEADBAND_QUANTITIES,
  emptyProfileForm,
  profileBody,
  type ProfileForm,
  profileForm,
  type RuleMessage,
  TIMER_FIELDS,
} from "./scada-rules.ts";

/**
 * Creates or edits a profile: the spec 5 rules checked as the user saves (the contract's schema),
 * then the server's answer (a port or an ASDU in use) placed on its field.
 */
export function ProfileDialog({
  profile,
  open,
  onOpenChange,
  onSaved,
}: {
  /** The profile edited, or null for a new one. */
  profile: ProfileDto | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSaved: (saved: ProfileDto) => void;
}) {
  const { t } = useTranslation(["scada", "errors"]);
  const [form, setForm] = useState<ProfileForm>(() =>
    profile ? profileForm(profile) : emptyProfileForm()
  );
  const [errors, setErrors] = useState<Record<string, RuleMessage>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const errorText = useErrorText();
  const saving = useAction(async () => {
    try {
      const body = profileBody(form);
      const saved = profile
        ? await api.put<ProfileDto>(`/scm/profiles/${profile.id}`, body, { handleErrors: true })
        : await api.post<ProfileDto>("/scm/profiles", body, { handleErrors: true });
      onSaved(saved);
    } catch (error) {
      const body = error instanceof ApiError ? error.body : null;
      const placed = serverErrors(body, { field: (path) => path });
      setErrors(placed.fields as Record<string, RuleMessage>);
      const failure = errorText(error);
      setFormError(placed.form ? failure.text : null);
    }
  });
  const save = () => {
    const found = checkProfile(form);
    setErrors(found);
    setFormError(null);
    if (!Object.keys(found).length) void saving.run();
  };
  const message = (path: string) => {
    const e = errors[path];
    return e ? t(`errors:${e.key}`, e.params ?? {}) : undefined;
  };
  const set = (patch: Partial<ProfileForm>, path: string) => {
    setForm((old) => ({ ...old, ...patch }));
    setErrors(({ [path]: _, ...rest }) => rest);
  };
  const text = (field: "name" | "ip_address" | "port" | "asdu", numeric = false) => (
    <FormField
      label={t(`fields.${field}`)}
      hint={field === "name" ? undefined : t(`hints.${field}`)}
      error={message(field)}
    >
      {(p) => (
        <Input
          {...p}
          name={field}
          inputMode={numeric ? "numeric" : undefined}
          value={form[field]}
          onChange={(e) => set({ [field]: e.target.value }, field)}
        />
      )}
    </FormField>
  );
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="w-[min(40rem,calc(100vw-2rem))]">
        <DialogHeader>
          <DialogTitle>{profile ? t("form.editTitle") : t("form.createTitle")}</DialogTitle>
        </DialogHeader>
        <form
          noValidate
          className="grid gap-3 sm:grid-cols-2"
          onSubmit={(e) => {
            e.preventDefault();
            save();
          }}
        >
          {text("name")}
          {text("ip_address")}
          {text("port", true)}
          {text("asdu", true)}
          <fieldset className="col-span-full grid grid-cols-3 gap-2 sm:grid-cols-6">
            <legend className="mb-1 text-xs font-medium text-muted-foreground">
              {t("fields.timers")}
            </legend>
            {TIMER_FIELDS.map((f) => (
              <FormField key={f} label={t(`fields.${f}`)} error={message(`timers.${f}`)}>
                {(p) => (
                  <Input
                    {...p}
                    name={`timers.${f}`}
                    inputMode="numeric"
                    value={form.timers[f]}
                    onChange={(e) =>
                      set({ timers: { ...form.timers, [f]: e.target.value } }, `timers.${f}`)}
                  />
                )}
              </FormField>
            ))}
            <p className="col-span-full text-xs text-muted-foreground">{t("hints.timers")}</p>
          </fieldset>
          <fieldset className="col-span-full grid grid-cols-3 gap-2 sm:grid-cols-5">
            <legend className="mb-1 text-xs font-medium text-muted-foreground">
              {t("fields.deadbands")}
            </legend>
            {DEADBAND_QUANTITIES.map((q) => (
              <FormField
                key={q}
                label={t(`fields.deadband_${q}`)}
                error={message(`deadbands.${q}`)}
              >
                {(p) => (
                  <Input
                    {...p}
                    name={`deadbands.${q}`}
                    inputMode="decimal"
                    value={form.deadbands[q]}
                    onChange={(e) =>
                      set(
                        { deadbands: { ...form.deadbands, [q]: e.target.value } },
                        `deadbands.${q}`,
                      )}
                  />
                )}
              </FormField>
            ))}
            <p className="col-span-full text-xs text-muted-foreground">{t("hints.deadbands")}</p>
          </fieldset>
          <label className="col-span-full flex items-center gap-2 text-sm">
            <Switch
              checked={form.activated}
              onCheckedChange={(checked) => set({ activated: checked }, "activated")}
              aria-label={t("fields.activated")}
            />
            {t("fields.activated")}
          </label>
          {formError
            ? <p role="alert" className="col-span-full text-sm text-state-critical">{formError}</p>
            : null}
          <DialogFooter className="col-span-full flex justify-end gap-2">
            <Button type="button" variant="ghost" onClick={() => onOpenChange(false)}>
              {t("form.cancel")}
            </Button>
            <Button type="submit" disabled={saving.busy}>{t("form.save")}</Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

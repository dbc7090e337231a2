/**
 * The field kit of the global settings form: a text or select field bound to the form with its
 * error, the list toggles, and the message of a field (server and form rules alike).
 */
import type { Dispatch, SetStateAction } from "react";
import { useTranslation } from "react-i18next";
import type { FieldErrors } from "../../lib/settings-rules.ts";
import { FormField } from "../../ui/form-field.tsx";
import { Input, Select } from "../../ui/input.tsx";
import type { SettingsForm, TextField } from "./settings-form.ts";

export function useFieldKit(
  form: SettingsForm,
  setForm: Dispatch<SetStateAction<SettingsForm>>,
  errors: FieldErrors,
  setErrors: Dispatch<SetStateAction<FieldErrors>>,
) {
  const { t } = useTranslation(["settings", "errors"]);
  const setText = (name: TextField, value: string) => {
    setForm((f) => ({ ...f, text: { ...f.text, [name]: value } }));
    setErrors(({ [name]: _, ...rest }) => rest);
  };
  const toggle = (list: "available_languages" | "applications", value: string, on: boolean) => {
    setForm((f) => ({
      ...f,
      [list]: on ? [...f[list], value] : f[list].filter((v) => v !== value),
    }));
    setErrors(({ [list]: _, default_language: __, ...rest }) => rest);
  };
  const message = (name: string) => {
    const e = errors[name];
    return e ? t(`errors:${e.key}`, e.params ?? {}) : null;
  };

  const text = (name: TextField, label: string, options: { hint?: string; type?: string } = {}) => (
    <FormField label={label} hint={options.hint} error={message(name)}>
      {(p) => (
        <Input
          {...p}
          type={options.type ?? "text"}
          inputMode={options.type === "number" ? "decimal" : undefined}
          value={form.text[name]}
          onChange={(e) => setText(name, e.target.value)}
        />
      )}
    </FormField>
  );
  const select = (
    name: TextField,
    label: string,
    items: readonly { value: string; label: string }[],
    hint?: string,
  ) => (
    <FormField label={label} hint={hint} error={message(name)}>
      {(p) => (
        <Select
          {...p}
          value={form.text[name]}
          onChange={(e) => setText(name, e.target.value)}
        >
          {form.text[name] === "" ? <option value="">{t("choose")}</option> : null}
          {items.map((i) => <option key={i.value} value={i.value}>{i.label}</option>)}
        </Select>
      )}
    </FormField>
  );
  return { setText, toggle, message, text, select };
}

/** The field kit a card of the form receives. */
export type FieldKit = ReturnType<typeof useFieldKit>;

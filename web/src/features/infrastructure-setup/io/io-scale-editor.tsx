/**
 * The measuring range of an analog input module (e.g. 4–20 mA spans -20 to 80 °C): the fields
 * of the new-module form, and a dialog that sets or removes it on an existing module. The rule
 * is the server's (the grid contract's `ioScaleInput`), the messages the same keys.
 */
import { Gauge } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useErrorText } from "../../../lib/use-error-text.ts";
import { useFormatters } from "../../../lib/use-formatters.ts";
import { Button } from "../../../ui/button.tsx";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../../ui/dialog.tsx";
import { FormField } from "../../../ui/form-field.tsx";
import { Input } from "../../../ui/input.tsx";
import type { IoModuleDto as ScaledIoModule } from "../../../../../modules/grid/contract.ts";
import { ioModulesApi, type IoScale } from "./io-modules-api.ts";
import { draftOf, readScale, type ScaleDraft, SIGNAL_UNITS } from "./io-scale.ts";

export { EMPTY_SCALE, readScale, type ScaleDraft } from "./io-scale.ts";

/** The three fields of a range. */
export function ScaleFields({
  draft,
  onChange,
  showErrors,
  systemType,
}: {
  draft: ScaleDraft;
  onChange: (draft: ScaleDraft) => void;
  showErrors: boolean;
  systemType: string;
}) {
  const { t } = useTranslation(["infrastructure", "errors"]);
  const { messages } = readScale(draft);
  const shown = (field: keyof ScaleDraft) => {
    const m = messages[field];
    return showErrors && m ? t(`errors:${m.key}`, m.params ?? {}) : null;
  };
  return (
    <fieldset className="grid grid-cols-3 gap-2">
      <legend className="mb-1 text-xs font-medium text-muted-foreground">
        {t("ioScale.title")}
      </legend>
      <p className="col-span-3 -mt-1 text-xs text-muted-foreground">
        {t("ioScale.hint", { signal: SIGNAL_UNITS[systemType] ?? "" })}
      </p>
      {(["min", "max", "unit"] as const).map((field) => (
        <FormField key={field} label={t(`ioScale.${field}`)} error={shown(field)}>
          {(props) => (
            <Input
              {...props}
              inputMode={field === "unit" ? "text" : "decimal"}
              value={draft[field]}
              onChange={(e) => onChange({ ...draft, [field]: e.target.value })}
            />
          )}
        </FormField>
      ))}
    </fieldset>
  );
}

/** How a module's values read: "4–20 mA → -20 to 80 °C", or the signal alone. */
export function ScaleText({ module: m }: { module: ScaledIoModule }) {
  const { t } = useTranslation(["infrastructure", "cells"]);
  const format = useFormatters();
  if (m.module_type !== "ANALOG_INPUT") return null;
  const signal = t(`cells:io.systemTypes.${m.system_type}`, { defaultValue: m.system_type });
  return (
    <span data-testid="io-scale">
      {m.scale
        ? t("ioScale.range", {
          signal,
          min: format.number(m.scale.min),
          max: format.number(m.scale.max),
          unit: m.scale.unit,
        })
        : t("ioScale.none", { signal })}
    </span>
  );
}

/** A button that opens the dialog setting or removing the range of an existing module. */
export function ScaleEditor(
  { module: m, onSaved }: { module: ScaledIoModule; onSaved: () => void },
) {
  const { t } = useTranslation(["infrastructure", "errors"]);
  const errorText = useErrorText();
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<ScaleDraft>(() => draftOf(m.scale));
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const save = async (scale: IoScale | null) => {
    setBusy(true);
    setError(null);
    try {
      await ioModulesApi.setScale(m.id, scale);
      setOpen(false);
      onSaved();
    } catch (e) {
      setError(errorText(e).text);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) {
          setDraft(draftOf(m.scale));
          setTried(false);
          setError(null);
        }
      }}
    >
      <Button
        variant="ghost"
        size="icon"
        aria-label={t("ioScale.edit", { name: m.name })}
        onClick={() => setOpen(true)}
      >
        <Gauge aria-hidden />
      </Button>
      <DialogContent className="w-[min(32rem,calc(100vw-2rem))]">
        <DialogHeader>
          <DialogTitle>{t("ioScale.edit", { name: m.name })}</DialogTitle>
          <DialogDescription>{t("ioScale.description")}</DialogDescription>
        </DialogHeader>
        <form
          noValidate
          className="flex flex-col gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            setTried(true);
            const { scale, messages } = readScale(draft);
            if (Object.keys(messages).length) return;
            void save(scale);
          }}
        >
          <ScaleFields
            draft={draft}
            onChange={setDraft}
            showErrors={tried}
            systemType={m.system_type}
          />
          {error ? <p role="alert" className="text-sm text-state-critical">{error}</p> : null}
          <DialogFooter>
            {m.scale
              ? (
                <Button
                  variant="ghost"
                  disabled={busy}
                  onClick={() => void save(null)}
                  className="mr-auto"
                >
                  {t("ioScale.remove")}
                </Button>
              )
              : null}
            <Button variant="secondary" onClick={() => setOpen(false)}>
              {t("actions.cancel")}
            </Button>
            <Button type="submit" disabled={busy}>{t("ioScale.save")}</Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

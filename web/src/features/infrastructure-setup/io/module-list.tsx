/** The customer's I/O module definitions: the list (delete when unused) and the form of spec 5. */
import { Plus, Trash2 } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useErrorText } from "../../../lib/use-error-text.ts";
import { ConfirmDialog } from "../../../ui/alert-dialog.tsx";
import { Button } from "../../../ui/button.tsx";
import { FormField } from "../../../ui/form-field.tsx";
import { Input } from "../../../ui/input.tsx";
import { Select } from "../../../ui/select.tsx";
import { cellsApi, type IoModule } from "../cells/cells-api.ts";
import {
  IO_MODULE_TYPES,
  IO_NAME,
  IO_SIZES,
  IO_SYSTEM_TYPES,
  ioModuleMessages,
  type IoModuleType,
  type RuleMessage,
} from "../cells/cells-rules.ts";
import { nameMessage, parseNumber } from "../structure/rules.ts";
import { ScaleEditor, ScaleFields, ScaleText } from "./io-scale-editor.tsx";
import { EMPTY_SCALE, readScale, type ScaleDraft } from "./io-scale.ts";

export function ModuleList({ modules, canWrite, onChanged }: {
  modules: IoModule[];
  canWrite: boolean;
  onChanged: () => void;
}) {
  const { t } = useTranslation(["cells", "errors", "infrastructure"]);
  const errorText = useErrorText();
  const [deleting, setDeleting] = useState<IoModule | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (!modules.length) return <p className="text-sm text-muted-foreground">{t("io.empty")}</p>;
  return (
    <>
      <table className="w-full text-sm">
        <thead>
          <tr className="text-left text-xs text-muted-foreground">
            <th className="py-1 font-medium">{t("io.form.name")}</th>
            <th className="py-1 font-medium">{t("io.form.type")}</th>
            <th className="py-1 font-medium">{t("io.form.size")}</th>
            <th className="py-1 font-medium">{t("io.form.resolution")}</th>
            <th className="py-1 font-medium">{t("infrastructure:ioScale.title")}</th>
            <th className="py-1 font-medium">{t("io.usedBy")}</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {modules.map((m) => (
            <tr key={m.id} className="border-t">
              <td className="py-1.5 font-medium">{m.name}</td>
              <td className="py-1.5">
                {t(`io.types.${m.module_type}`)}
                <span className="block text-xs text-muted-foreground">
                  {t(`io.systemTypes.${m.system_type}`)}
                </span>
              </td>
              <td className="py-1.5">{t("io.channels", { count: m.size })}</td>
              <td className="py-1.5">{m.resolution}</td>
              <td className="py-1.5 text-xs">
                <ScaleText module={m} />
              </td>
              <td className="py-1.5">{m.used_by}</td>
              <td className="py-1.5 text-right whitespace-nowrap">
                {canWrite && m.module_type === "ANALOG_INPUT"
                  ? <ScaleEditor module={m} onSaved={onChanged} />
                  : null}
                {canWrite
                  ? (
                    <Button
                      variant="ghost"
                      size="icon"
                      aria-label={t("io.delete", { name: m.name })}
                      title={m.used_by ? t("errors:validation.deleteModuleInUse") : undefined}
                      onClick={() => {
                        setError(null);
                        setDeleting(m);
                      }}
                    >
                      <Trash2 />
                    </Button>
                  )
                  : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {error ? <p role="alert" className="text-sm text-state-critical">{error}</p> : null}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={deleting?.name ?? ""}
        description={t("errors:validation.deleteConfirm")}
        confirmLabel={t("errors:validation.deleteConfirmButton")}
        cancelLabel={t("actions.cancel")}
        onConfirm={() => {
          const target = deleting;
          setDeleting(null);
          if (!target) return;
          cellsApi.deleteModule(target.id).then(onChanged, (e) => setError(errorText(e).text));
        }}
      />
    </>
  );
}

export function ModuleForm({ onCreated }: { onCreated: () => void }) {
  const { t } = useTranslation(["cells", "errors"]);
  const errorText = useErrorText();
  const [name, setName] = useState("");
  const [type, setType] = useState<IoModuleType>("DIGITAL_INPUT");
  const [systemType, setSystemType] = useState<string>(IO_SYSTEM_TYPES.DIGITAL_INPUT[0]!);
  const [size, setSize] = useState<number | null>(null);
  const [resolution, setResolution] = useState("");
  const [scaleDraft, setScaleDraft] = useState<ScaleDraft>(EMPTY_SCALE);
  const [tried, setTried] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const messages: Record<string, RuleMessage> = {
    ...ioModuleMessages({ size, resolution: parseNumber(resolution) }),
  };
  const nameRule = nameMessage(name, IO_NAME);
  if (nameRule) messages.name = nameRule;
  const shown = (field: string) => {
    const m = messages[field];
    return tried && m ? t(`errors:${m.key}`, m.params ?? {}) : null;
  };
  const analog = type === "ANALOG_INPUT";
  const range = readScale(analog ? scaleDraft : EMPTY_SCALE);
  const submit = async () => {
    setTried(true);
    if (Object.keys(messages).length || Object.keys(range.messages).length) return;
    setBusy(true);
    setError(null);
    try {
      await cellsApi.createModule({
        name: name.trim(),
        module_type: type,
        system_type: systemType,
        size: size!,
        resolution: parseNumber(resolution)!,
        scale: range.scale,
      });
      setName("");
      setSize(null);
      setResolution("");
      setScaleDraft(EMPTY_SCALE);
      setTried(false);
      onCreated();
    } catch (e) {
      setError(errorText(e).text);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      noValidate
      aria-label={t("io.form.title")}
      className="grid gap-3 border-t pt-3 sm:grid-cols-2"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h3 className="text-sm font-semibold sm:col-span-2">{t("io.form.title")}</h3>
      <FormField label={t("io.form.name")} error={shown("name")}>
        {(props) => (
          <Input
            {...props}
            value={name}
            maxLength={IO_NAME.max + 10}
            onChange={(e) => setName(e.target.value)}
          />
        )}
      </FormField>
      <FormField label={t("io.form.type")}>
        {(props) => (
          <Select
            {...props}
            value={type}
            onValueChange={(v) => {
              const next = v as IoModuleType;
              setType(next);
              setSystemType(IO_SYSTEM_TYPES[next][0]!);
            }}
            options={IO_MODULE_TYPES.map((m) => ({ value: m, label: t(`io.types.${m}`) }))}
          />
        )}
      </FormField>
      <FormField label={t("io.form.systemType")}>
        {(props) => (
          <Select
            {...props}
            value={systemType}
            onValueChange={setSystemType}
            options={IO_SYSTEM_TYPES[type].map((s) => ({
              value: s,
              label: t(`io.systemTypes.${s}`),
            }))}
          />
        )}
      </FormField>
      <FormField label={t("io.form.size")} error={shown("size")}>
        {(props) => (
          <Select
            {...props}
            value={size === null ? "" : String(size)}
            placeholder={t("io.form.sizePlaceholder")}
            onValueChange={(v) => setSize(Number(v))}
            options={IO_SIZES.map((s) => ({
              value: String(s),
              label: t("io.channels", { count: s }),
            }))}
          />
        )}
      </FormField>
      <FormField
        label={t("io.form.resolution")}
        error={shown("resolution")}
        hint={t("errors:validation.allowedMinus1To1")}
      >
        {(props) => (
          <Input
            {...props}
            inputMode="decimal"
            value={resolution}
            onChange={(e) => setResolution(e.target.value)}
          />
        )}
      </FormField>
      {analog
        ? (
          <div className="sm:col-span-2">
            <ScaleFields
              draft={scaleDraft}
              onChange={setScaleDraft}
              showErrors={tried}
              systemType={systemType}
            />
          </div>
        )
        : null}
      <div className="flex items-end">
        <Button type="submit" disabled={busy}>
          <Plus />
          {t("io.form.create")}
        </Button>
      </div>
      {error
        ? <p role="alert" className="text-sm text-state-critical sm:col-span-2">{error}</p>
        : null}
    </form>
  );
}

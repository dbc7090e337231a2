/**
 * I/O configuration (spec 2.8, 3 "Module", 5): the customer's modules (digital input, digital
 * output, analog input) with the form rules and messages of spec 5, and the modules activated on
 * each cell in the field, with the notice of spec 5.
 */
import { Info, Plus, Trash2 } from "lucide-react";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { isAdminOf } from "../../../lib/access.ts";
import { useSession } from "../../../lib/session-atoms.ts";
import { useAsync } from "../../../lib/use-async.ts";
import { useErrorText } from "../../../lib/use-error-text.ts";
import { ConfirmDialog } from "../../../ui/alert-dialog.tsx";
import { Button } from "../../../ui/button.tsx";
import { FormField } from "../../../ui/form-field.tsx";
import { Input } from "../../../ui/input.tsx";
import { Loader, LoadError } from "../../../ui/loader.tsx";
import { Select } from "../../../ui/select.tsx";
import { type CellIo, cellsApi, type IoModule, type SetupCell } from "../cells/cells-api.ts";
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

const IO_KEY = "hes:io-configuration";

/** The I/O configuration tab. */
export function IoConfigurationTab() {
  const { t } = useTranslation(["cells", "errors"]);
  const { claims } = useSession();
  const canWrite = isAdminOf(claims.appsRoles, IO_KEY) || claims.role === "super-admin";
  const modules = useAsync(() => cellsApi.modules(), []);
  // A reload keeps showing the list it replaces.
  const last = useRef<IoModule[] | null>(null);
  if (modules.status === "success") last.current = modules.data;
  const shown = modules.status === "success" ? modules.data : last.current;
  return (
    <div className="flex flex-col gap-4 pt-3">
      <div
        role="note"
        className="flex gap-2 rounded-md border-l-4 border-primary bg-accent p-3 text-sm text-accent-foreground"
      >
        <Info aria-hidden className="mt-0.5 size-4 shrink-0" />
        <div className="flex flex-col gap-1">
          <p>{t("errors:validation.ioConfigurationNotice")}</p>
          <p>{t("errors:validation.ioConfigurationUnsupported")}</p>
        </div>
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <section className="flex flex-col gap-3 rounded-lg border bg-surface p-4">
          <h2 className="text-sm font-semibold">{t("io.modules")}</h2>
          {modules.status === "error"
            ? <LoadError onRetry={modules.reload} />
            : shown
            ? <ModuleList modules={shown} canWrite={canWrite} onChanged={modules.reload} />
            : <Loader />}
          {canWrite ? <ModuleForm onCreated={modules.reload} /> : null}
        </section>
        <CellModules
          modules={shown ?? []}
          canWrite={canWrite}
          onChanged={modules.reload}
        />
      </div>
    </div>
  );
}

function ModuleList({ modules, canWrite, onChanged }: {
  modules: IoModule[];
  canWrite: boolean;
  onChanged: () => void;
}) {
  const { t } = useTranslation(["cells", "errors"]);
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
              <td className="py-1.5">{m.used_by}</td>
              <td className="py-1.5 text-right">
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

function ModuleForm({ onCreated }: { onCreated: () => void }) {
  const { t } = useTranslation(["cells", "errors"]);
  const errorText = useErrorText();
  const [name, setName] = useState("");
  const [type, setType] = useState<IoModuleType>("DIGITAL_INPUT");
  const [systemType, setSystemType] = useState<string>(IO_SYSTEM_TYPES.DIGITAL_INPUT[0]!);
  const [size, setSize] = useState<number | null>(null);
  const [resolution, setResolution] = useState("");
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
  const submit = async () => {
    setTried(true);
    if (Object.keys(messages).length) return;
    setBusy(true);
    setError(null);
    try {
      await cellsApi.createModule({
        name: name.trim(),
        module_type: type,
        system_type: systemType,
        size: size!,
        resolution: parseNumber(resolution)!,
      });
      setName("");
      setSize(null);
      setResolution("");
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

/** Every cell in the field (the list is paged by 10 on the server). */
async function installedCells(): Promise<SetupCell[]> {
  const first = await cellsApi.list("INSTALLED", 1);
  const pages = Math.ceil(first.total / first.page_size);
  const rest = await Promise.all(
    Array.from({ length: Math.max(0, pages - 1) }, (_, k) => cellsApi.list("INSTALLED", k + 2)),
  );
  return [first, ...rest].flatMap((p) => p.items);
}

function CellModules({ modules, canWrite, onChanged }: {
  modules: IoModule[];
  canWrite: boolean;
  onChanged: () => void;
}) {
  const { t } = useTranslation(["cells", "errors"]);
  const errorText = useErrorText();
  const cells = useAsync(() => installedCells(), []);
  const [cellId, setCellId] = useState<string | undefined>(undefined);
  const [io, setIo] = useState<CellIo | null>(null);
  const [moduleId, setModuleId] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const apply = async (load: () => Promise<CellIo>) => {
    setError(null);
    setNotice(null);
    try {
      const next = await load();
      setIo(next);
      if (next.deactivated?.length) {
        setNotice(t("errors:validation.analogResolutionConflict"));
      }
      onChanged();
    } catch (e) {
      setError(errorText(e).text);
    }
  };
  const choose = (id: string) => {
    setCellId(id);
    setIo(null);
    setModuleId(undefined);
    void apply(() => cellsApi.cellModules(id));
  };
  const available = modules.filter((m) => !io?.modules.some((x) => x.id === m.id));
  const picked = modules.find((m) => m.id === moduleId);
  const full = Boolean(
    io && picked &&
      io.modules.filter((m) => m.active && m.module_type === picked.module_type).length >=
        io.thresholds[picked.module_type],
  );
  return (
    <section className="flex flex-col gap-3 rounded-lg border bg-surface p-4">
      <h2 className="text-sm font-semibold">{t("io.cell.title")}</h2>
      {cells.status === "loading"
        ? <Loader />
        : cells.status === "error"
        ? <LoadError onRetry={cells.reload} />
        : (
          <FormField label={t("io.cell.cell")}>
            {(props) => (
              <Select
                {...props}
                value={cellId}
                placeholder={t("io.cell.choose")}
                onValueChange={choose}
                options={cells.data.map((c) => ({
                  value: c.id,
                  label: `${c.serial_number} · ${c.node?.name ?? ""}`,
                }))}
              />
            )}
          </FormField>
        )}
      {io && !io.supported
        ? (
          <p className="text-sm text-state-warning">
            {t("errors:validation.ioConfigurationUnsupported")}
          </p>
        )
        : null}
      {io && io.supported
        ? (
          <>
            <p className="text-xs text-muted-foreground">
              {t("io.cell.thresholds", io.thresholds)}
            </p>
            {io.modules.length
              ? (
                <ul className="flex flex-col divide-y rounded-md border">
                  {io.modules.map((m) => (
                    <li key={m.id} className="flex items-center gap-3 px-3 py-2 text-sm">
                      <span className="w-20 shrink-0 text-xs text-muted-foreground">
                        {t("io.cell.slot", { slot: m.slot })}
                      </span>
                      <span className="flex-1">
                        <span className="font-medium">{m.name}</span>
                        <span className="block text-xs text-muted-foreground">
                          {t(`io.types.${m.module_type}`)} · {m.resolution}
                        </span>
                      </span>
                      {!m.active
                        ? (
                          <span className="rounded-full bg-state-warning-soft px-2 py-0.5 text-xs text-state-warning">
                            {t("io.cell.inactive")}
                          </span>
                        )
                        : null}
                      {canWrite
                        ? (
                          <Button
                            variant="ghost"
                            size="sm"
                            onClick={() =>
                              void apply(() => cellsApi.deactivateModule(cellId!, m.id))}
                          >
                            {t("io.cell.remove")}
                          </Button>
                        )
                        : null}
                    </li>
                  ))}
                </ul>
              )
              : <p className="text-sm text-muted-foreground">{t("io.cell.none")}</p>}
            {canWrite
              ? (
                <div className="flex items-end gap-2">
                  <FormField label={t("io.cell.module")} className="flex-1">
                    {(props) => (
                      <Select
                        {...props}
                        value={moduleId ?? ""}
                        placeholder={t("io.cell.chooseModule")}
                        onValueChange={setModuleId}
                        options={available.map((m) => ({
                          value: m.id,
                          label: `${m.name} · ${t(`io.types.${m.module_type}`)}`,
                        }))}
                        disabled={!available.length}
                      />
                    )}
                  </FormField>
                  <Button
                    disabled={!moduleId || full}
                    onClick={() => {
                      const id = moduleId!;
                      setModuleId(undefined);
                      void apply(() => cellsApi.activateModule(cellId!, id));
                    }}
                  >
                    {t("io.cell.add")}
                  </Button>
                </div>
              )
              : null}
          </>
        )
        : null}
      {full
        ? (
          <p role="alert" className="text-sm text-state-critical">
            {t("errors:validation.moduleThresholdExceeded")}
          </p>
        )
        : null}
      {notice ? <p role="status" className="text-sm text-state-warning">{notice}</p> : null}
      {error ? <p role="alert" className="text-sm text-state-critical">{error}</p> : null}
    </section>
  );
}

/** The modules activated on each cell in the field, with the notice of spec 5. */
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useAsync } from "../../../lib/use-async.ts";
import { useErrorText } from "../../../lib/use-error-text.ts";
import { Button } from "../../../ui/button.tsx";
import { FormField } from "../../../ui/form-field.tsx";
import { Loader, LoadError } from "../../../ui/loader.tsx";
import { Select } from "../../../ui/select.tsx";
import { type CellIo, cellsApi, type IoModule, type SetupCell } from "../cells/cells-api.ts";

/** Every cell in the field (the list is paged by 10 on the server). */
async function installedCells(): Promise<SetupCell[]> {
  const first = await cellsApi.list("INSTALLED", 1);
  const pages = Math.ceil(first.total / first.page_size);
  const rest = await Promise.all(
    Array.from({ length: Math.max(0, pages - 1) }, (_, k) => cellsApi.list("INSTALLED", k + 2)),
  );
  return [first, ...rest].flatMap((p) => p.items);
}

export function CellModules({ modules, canWrite, onChanged }: {
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

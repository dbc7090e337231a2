/**
 * I/O configuration (spec 2.8, 3 "Module", 5): the customer's modules (digital input, digital
 * output, analog input) with the form rules and messages of spec 5, and the modules activated on
 * each cell in the field, with the notice of spec 5.
 */
import { Info } from "lucide-react";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { isAdminOf } from "../../../lib/access.ts";
import { useSession } from "../../../lib/session-atoms.ts";
import { useAsync } from "../../../lib/use-async.ts";
import { Loader, LoadError } from "../../../ui/loader.tsx";
import { cellsApi, type IoModule } from "../cells/cells-api.ts";
import { CellModules } from "./cell-modules.tsx";
import { ModuleForm, ModuleList } from "./module-list.tsx";

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

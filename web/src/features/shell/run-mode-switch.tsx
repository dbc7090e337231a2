import { useAtom } from "jotai";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { runModeAtom } from "../../lib/shell-atoms.ts";
import { Switch } from "../../ui/switch.tsx";

/** The Auto/Manual run mode of grid monitoring; the page reads and acts on the atom. */
export function RunModeSwitch() {
  const { t } = useTranslation("shell");
  const [mode, setMode] = useAtom(runModeAtom);
  const id = useId();
  return (
    <div className="flex items-center gap-2 text-xs font-medium text-header-muted">
      <span aria-hidden className={mode === "manual" ? "text-header-foreground" : undefined}>
        {t("runMode.manual")}
      </span>
      <Switch
        id={id}
        aria-label={t("runMode.label")}
        aria-valuetext={t(mode === "auto" ? "runMode.auto" : "runMode.manual")}
        checked={mode === "auto"}
        onCheckedChange={(checked) => setMode(checked ? "auto" : "manual")}
        className="data-[state=unchecked]:bg-header-accent"
      />
      <span aria-hidden className={mode === "auto" ? "text-header-foreground" : undefined}>
        {t("runMode.auto")}
      </span>
    </div>
  );
}

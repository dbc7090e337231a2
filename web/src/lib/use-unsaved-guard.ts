/** Keeps a form with unsaved changes from being left by accident (route change or unload). */
import { useBlocker } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";

/** While `dirty`, leaving the screen asks for confirmation first. */
export function useUnsavedGuard(dirty: boolean): void {
  const { t } = useTranslation("settings");
  useBlocker({
    shouldBlockFn: () => dirty && !window.confirm(t("unsavedChanges")),
    enableBeforeUnload: () => dirty,
  });
}

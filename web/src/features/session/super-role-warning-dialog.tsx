import { Settings, TriangleAlert } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Button } from "../../ui/button.tsx";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../ui/dialog.tsx";

/**
 * Spec 6: a super-user or super-admin working on a customer whose mandatory settings are unset
 * is sent to /global-settings#apps-settings.
 */
export function SuperRoleWarningDialog({
  open,
  onOpenChange,
  customerName,
  missing,
  onGoToSettings,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  customerName: string;
  missing: readonly string[];
  onGoToSettings: () => void;
}) {
  const { t } = useTranslation("common");
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle className="flex items-center gap-2">
            <TriangleAlert aria-hidden className="size-5 text-state-warning" />
            {t("superWarning.title")}
          </DialogTitle>
          <DialogDescription>
            {t("superWarning.description", {
              name: customerName.trim() || t("superWarning.unnamedCustomer"),
            })}
          </DialogDescription>
        </DialogHeader>
        <ul className="list-disc space-y-1 pl-5 text-sm">
          {missing.map((field) => <li key={field}>{t(`superWarning.fields.${field}`)}</li>)}
        </ul>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="secondary">{t("actions.later")}</Button>
          </DialogClose>
          <Button onClick={onGoToSettings}>
            <Settings aria-hidden />
            {t("superWarning.goToSettings")}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

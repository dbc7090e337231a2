import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../ui/button.tsx";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../ui/dialog.tsx";
import { Spinner } from "../../ui/spinner.tsx";

/**
 * 'Your session is about to end' (spec 2.9). Continue renews the session silently with the
 * refresh token; closing the dialog any other way leaves the session to expire.
 */
export function SessionExpiringDialog({
  open,
  onContinue,
  onLogout,
}: {
  open: boolean;
  onContinue: () => Promise<void>;
  onLogout: () => void;
}) {
  const { t } = useTranslation("common");
  const [renewing, setRenewing] = useState(false);
  const renew = () => {
    setRenewing(true);
    onContinue().finally(() => setRenewing(false));
  };
  return (
    <Dialog open={open}>
      <DialogContent
        onEscapeKeyDown={(e) => e.preventDefault()}
        onPointerDownOutside={(e) => e.preventDefault()}
        onInteractOutside={(e) => e.preventDefault()}
      >
        <DialogHeader>
          <DialogTitle>{t("session.expiringTitle")}</DialogTitle>
          <DialogDescription>{t("session.expiringDescription")}</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="secondary" onClick={onLogout} disabled={renewing}>
            {t("session.logout")}
          </Button>
          <Button onClick={renew} disabled={renewing} autoFocus>
            {renewing ? <Spinner className="size-4 text-primary-foreground" /> : null}
            {t("session.continue")}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

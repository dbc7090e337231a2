import { CloudOff, RotateCw } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Button } from "../../ui/button.tsx";
import { ErrorPage } from "./error-page.tsx";

/** 503: the service (or the configuration it serves) cannot be reached right now. */
export function ServiceUnavailablePage() {
  const { t } = useTranslation("common");
  return (
    <ErrorPage
      status={503}
      tone="critical"
      icon={<CloudOff />}
      title={t("errorPages.unavailableTitle")}
      description={t("errorPages.unavailableDescription")}
      actions={
        <Button onClick={() => window.location.reload()}>
          <RotateCw aria-hidden />
          {t("actions.reload")}
        </Button>
      }
    />
  );
}

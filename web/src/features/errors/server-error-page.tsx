import { RotateCw, ServerCrash } from "lucide-react";
import { useTranslation } from "react-i18next";
import { errorOrigin } from "../../lib/api.ts";
import { Button } from "../../ui/button.tsx";
import { ErrorPage } from "./error-page.tsx";

/** 500: system error with a Reload button; the api variant follows a failed call. */
export function ServerErrorPage({ api = false }: { api?: boolean }) {
  const { t } = useTranslation("common");
  // After a failed call, Reload retries the page the user was on, not the error page.
  const reload = () => {
    const origin = api ? errorOrigin() : null;
    if (origin) window.location.assign(origin);
    else window.location.reload();
  };
  return (
    <ErrorPage
      status={500}
      tone="critical"
      icon={<ServerCrash />}
      title={t("errorPages.serverErrorTitle")}
      description={t(
        api ? "errorPages.serverErrorApiDescription" : "errorPages.serverErrorDescription",
      )}
      actions={
        <Button onClick={reload}>
          <RotateCw aria-hidden />
          {t("actions.reload")}
        </Button>
      }
    />
  );
}

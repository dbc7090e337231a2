import { ShieldX } from "lucide-react";
import { useTranslation } from "react-i18next";
import { ErrorPage } from "./error-page.tsx";

/** 403: a page the user has no role for, or (api) a refused backend resource. */
export function ForbiddenPage({ api = false }: { api?: boolean }) {
  const { t } = useTranslation("common");
  return (
    <ErrorPage
      status={403}
      icon={<ShieldX />}
      title={t(api ? "errorPages.forbiddenApiTitle" : "errorPages.forbiddenTitle")}
      description={t(
        api ? "errorPages.forbiddenApiDescription" : "errorPages.forbiddenDescription",
      )}
    />
  );
}

import { Link } from "@tanstack/react-router";
import { Network } from "lucide-react";
import { useTranslation } from "react-i18next";
import { denialReason } from "../lib/access.ts";
import { MODULES } from "../lib/modules.ts";
import { useAccessContext } from "../lib/session-atoms.ts";
import { Button } from "./button.tsx";
import { EmptyState } from "./empty-state.tsx";

/**
 * The spec's "The grid structure is not yet defined!" with the way out: a link to
 * Infrastructure Setup for whoever may open it, else whom to ask.
 */
export function StructureMissing({ className }: { className?: string }) {
  const { t } = useTranslation(["common", "errors"]);
  const setup = MODULES["infrastructure-setup"];
  const canSetUp = denialReason(setup.access, useAccessContext()) === null;
  return (
    <EmptyState
      icon={<Network />}
      title={t("errors:grid.structureNotDefined")}
      description={canSetUp ? t("structureMissing.setUp") : t("structureMissing.askAdmin")}
      {...(className ? { className } : {})}
    >
      {canSetUp
        ? (
          <Button asChild>
            <Link to={setup.path}>{t("structureMissing.open")}</Link>
          </Button>
        )
        : null}
    </EmptyState>
  );
}

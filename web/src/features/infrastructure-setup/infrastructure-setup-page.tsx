import { Cpu, Network, ToggleRight } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "@tanstack/react-router";
import {
  bareHash,
  holdsKey,
  IO_CONFIGURATION_HASH,
  IO_CONFIGURATION_KEY,
} from "../../lib/access.ts";
import { useSession } from "../../lib/session-atoms.ts";
import { Page } from "../../ui/page.tsx";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../ui/tabs.tsx";
import { CellsTab } from "./cells/cells-tab.tsx";
import { GridStructureTab } from "./structure/grid-structure-tab.tsx";
import { IoConfigurationTab } from "./io/io-configuration-tab.tsx";

/** Tabs of the screen; the hash names the tab (#cells, #io-configuration), none is the grid. */
export const SETUP_TABS = ["grid-structure", "cells", IO_CONFIGURATION_HASH] as const;
export type SetupTab = (typeof SETUP_TABS)[number];

/** The tab a URL hash selects. */
export function tabOfHash(hash: string): SetupTab {
  const name = bareHash(hash);
  return (SETUP_TABS as readonly string[]).includes(name) ? name as SetupTab : "grid-structure";
}

/**
 * Infrastructure Setup (spec 2.8): grid structure, cells and I/O configuration. The
 * #io-configuration tab is offered only to holders of hes:io-configuration (spec 2.2; the route
 * guard shows 403 for the hash otherwise).
 */
export function InfrastructureSetupPage() {
  const { t } = useTranslation(["infrastructure", "modules"]);
  const { claims } = useSession();
  const navigate = useNavigate();
  const tab = tabOfHash(useLocation().hash);
  const canIo = holdsKey(claims.appsRoles, IO_CONFIGURATION_KEY);
  return (
    <Page title={t("modules:infrastructure-setup.title")} subtitle={t("subtitle")}>
      <Tabs
        value={tab}
        onValueChange={(value) =>
          void navigate({
            to: "/infrastructure-setup",
            hash: value === "grid-structure" ? "" : value,
          })}
        className="flex min-h-0 flex-1 flex-col"
      >
        <TabsList aria-label={t("tabs.label")}>
          <TabsTrigger value="grid-structure">
            <Network aria-hidden />
            {t("tabs.grid-structure")}
          </TabsTrigger>
          <TabsTrigger value="cells">
            <Cpu aria-hidden />
            {t("tabs.cells")}
          </TabsTrigger>
          {canIo
            ? (
              <TabsTrigger value={IO_CONFIGURATION_HASH}>
                <ToggleRight aria-hidden />
                {t("tabs.io-configuration")}
              </TabsTrigger>
            )
            : null}
        </TabsList>
        <TabsContent value="grid-structure">
          <GridStructureTab />
        </TabsContent>
        {/* The grid structure and I/O tabs keep their own top spacing; the cells tab gets it here. */}
        <TabsContent value="cells" className="pt-3">
          <CellsTab />
        </TabsContent>
        {canIo
          ? (
            <TabsContent value={IO_CONFIGURATION_HASH}>
              <IoConfigurationTab />
            </TabsContent>
          )
          : null}
      </Tabs>
    </Page>
  );
}

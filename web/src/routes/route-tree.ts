/** The route tree of spec 2.1 (code-based routes). */
import { apiDocRoute } from "./api-doc.tsx";
import { apiSettingsRoute } from "./api-settings.tsx";
import { dataExportRoute } from "./data-export.tsx";
import { errorRoutes } from "./errors.tsx";
import { globalSettingsRoute } from "./global-settings.tsx";
import { gridMonitoringRoute, gridMonitoringSettingsRoute } from "./grid-monitoring.tsx";
import { indexRoute } from "./index-route.tsx";
import { infrastructureSetupRoute } from "./infrastructure-setup.tsx";
import { ioMonitoringRoute } from "./io-monitoring.tsx";
import { meteringInformationRoute } from "./metering-information.tsx";
import { powerQualityTree } from "./power-quality.tsx";
import { rootRoute } from "./root.tsx";
import { scadaConnectorRoute } from "./scada-connector.tsx";
import { userDetailRoute, userManagementRoute } from "./user-management.tsx";
import { userSettingsRoute } from "./user-settings.tsx";
import { visualStatisticsTree } from "./visual-statistics.tsx";

export const routeTree = rootRoute.addChildren([
  indexRoute,
  ...errorRoutes,
  userSettingsRoute,
  dataExportRoute,
  infrastructureSetupRoute,
  scadaConnectorRoute,
  userManagementRoute,
  userDetailRoute,
  globalSettingsRoute,
  apiSettingsRoute,
  meteringInformationRoute,
  gridMonitoringRoute,
  gridMonitoringSettingsRoute,
  visualStatisticsTree,
  powerQualityTree,
  apiDocRoute,
  ioMonitoringRoute,
]);

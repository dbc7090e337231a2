/**
 * Composition root: config -> stores -> event bus -> a list of modules -> Hono app -> serve.
 * `startPlatform` is also what integration and end-to-end tests start.
 */
import { type MeasurementStore, startStreamingCore } from "./core/mod.ts";
import { apiClientsModule } from "./modules/api_clients/mod.ts";
import { customersModule } from "./modules/customers/mod.ts";
import { type ExportModule, exportModule } from "./modules/export/mod.ts";
import { seedDemo, startDemoSimulation, startFieldCellPolling } from "./modules/demo/mod.ts";
import { type CellOnboardingService, type CellsService, gridModule } from "./modules/grid/mod.ts";
import { createIdentity, type LoginThrottleOptions } from "./modules/identity/mod.ts";
import { type IngestionModule, ingestionModule } from "./modules/ingestion/mod.ts";
import { type IoMonitoringModule, ioMonitoringModule } from "./modules/io_monitoring/mod.ts";
import { type NotificationCentre, notificationsModule } from "./modules/notifications/mod.ts";
import { statisticsModule } from "./modules/statistics/mod.ts";
import {
  powerQualityCustomers,
  type PowerQualityModule,
  powerQualityModule,
} from "./modules/power_quality/mod.ts";
import { type ScadaModule, scadaModule } from "./modules/scada/mod.ts";
import { type GridStatusService, monitoringModule } from "./modules/monitoring/mod.ts";
import {
  API_PREFIXES,
  type AppConfig,
  type AppEnv,
  checkedVerifier,
  ConfigError,
  createHttpApp,
  createLogger,
  type Db,
  EventBus,
  inputGate,
  loadConfig,
  type Logger,
  openMigratedDatabase,
  type PlatformModule,
  requireAuth,
  serveWebApp,
  tenant,
  type TenantDirectory,
  type TokenVerifier,
  type WebConfig,
} from "./kernel/mod.ts";
import { usersModule } from "./modules/users/mod.ts";
import { type VoltageEventsModule, voltageEventsModule } from "./modules/voltage_events/mod.ts";
import type { CustomersService } from "./modules/customers/mod.ts";
import type { Aggregator } from "./core/mod.ts";
import type { DuckDBConnection } from "@duckdb/node-api";
import { Hono } from "hono";
import pkg from "./package.json" with { type: "json" };

export { API_PREFIXES } from "./kernel/mod.ts";
export const APP_NAME = "GridWatch";

/** A started platform: the Hono app and a way to stop everything in order. */
export interface Platform {
  app: Hono<AppEnv>;
  config: AppConfig;
  /** Services the demo simulator and the tests drive directly. */
  services: {
    db: Db;
    /** The DuckDB connection for queries (never inside an ingestion transaction). */
    analytics: DuckDBConnection;
    customers: CustomersService;
    cells: CellsService;
    /** Cell registration and credentials (the calls of /gsm/cells behind them). */
    onboarding: CellOnboardingService;
    measurements: MeasurementStore;
    aggregator: Aggregator;
    gridStatus: GridStatusService;
    /** The event bus (tests publish integration events through it). */
    bus: EventBus;
    notifications: NotificationCentre;
    /** IO monitoring (tests drive its state-change watcher). */
    ioMonitoring: IoMonitoringModule;
    /** The cell protocol (tests flush the device statuses it collects). */
    ingestion: IngestionModule;
    /** Power-quality reports (tests drive the job runner). */
    powerQuality: PowerQualityModule;
    voltageEvents: VoltageEventsModule;
    /** Data export (tests wait for its jobs and run its retention). */
    exports: ExportModule;
    /** The SCADA connector (tests wait for its listeners). */
    scada: ScadaModule;
  };
  close(): Promise<void>;
}

/** What tests may change in a platform beyond its config. */
export interface PlatformOptions {
  /** The login throttle's policies and clock (tests expire a lockout without waiting). */
  loginThrottle?: LoginThrottleOptions;
}

/** Opens the stores, migrates, seeds the demo when enabled, and assembles every module. */
export async function startPlatform(
  config: AppConfig,
  logger: Logger = createLogger(config.logLevel),
  options: PlatformOptions = {},
): Promise<Platform> {
  const { database, applied } = await openMigratedDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
  });
  if (applied.length) logger.info("Migrations applied", { applied, database: database.kind });
  const core = await startStreamingCore({ ...config, logger });
  const { db } = database;
  const bus = new EventBus(logger);
  const store = core.measurements;
  const analytics = core.timeSeries.connection;

  const customers = customersModule({ db });
  const users = usersModule({
    db,
    bus,
    customerOf: (key) => customers.service.getByKey(key),
    publicUrl: config.publicUrl,
    // An external provider's token lifetime is its own: a day covers the usual settings.
    tokenLifetimeSeconds: config.externalOidc ? 86_400 : config.accessTokenTtl,
    logger: logger.child({ module: "users" }),
  });
  const grid = gridModule({ db, bus, store, analytics, publicUrl: config.publicUrl });
  if (config.demoSeed) {
    await seedDemo({
      db,
      customers: customers.service,
      users: users.service,
      cells: grid.cells,
      onboarding: grid.onboarding,
      logger,
      bus,
    });
  }
  const identity = await createIdentity({
    publicUrl: config.publicUrl,
    appName: APP_NAME,
    db,
    users: users.service,
    customers: customers.service,
    logger,
    external: config.externalOidc,
    accessTokenTtl: config.accessTokenTtl,
    bus,
    clientAddress: { trustProxy: config.trustProxy },
    ...(options.loginThrottle ? { throttle: options.loginThrottle } : {}),
  });
  // Every bearer token, on the API and on the STOMP socket, passes the users' revocation registry.
  const verifier = checkedVerifier(identity.verifier, users.access);
  const monitoring = await monitoringModule({
    db,
    bus,
    logger,
    cells: grid.cells,
    customers: customers.service,
    store,
    analytics,
  });
  const notifications = notificationsModule({
    db,
    bus,
    users: users.service,
    verifier,
    tenants: customers.service.tenants,
    logger,
    smtpUrl: config.smtpUrl,
    mailFrom: config.mailFrom,
    e2eHooks: config.e2eHooks,
  });
  const ioMonitoring = ioMonitoringModule({
    db,
    analytics,
    bus,
    logger: logger.child({ module: "io-monitoring" }),
    onCommit: (listener) => store.onSlotsTouched(listener),
  });
  const ingestion = ingestionModule({
    cells: grid.cells,
    store,
    rawLifetimeDays: config.rawLifetimeDays,
    logger: logger.child({ module: "ingestion" }),
    mqtt: config.mqtt,
  });
  const powerQuality = powerQualityModule({
    db,
    analytics,
    bus,
    logger: logger.child({ module: "power-quality" }),
    topology: monitoring.topology,
    cells: grid.cells,
    store,
    customers: customers.service,
    // The report's PDF lists the node's voltage events (the events module is built just below).
    periodEvents: (...args) => voltageEvents.service.periodEvents(...args),
    limits: { maxReports: config.pqMaxReports },
    complianceCustomers: powerQualityCustomers(customers.service),
  });
  const voltageEvents = voltageEventsModule({
    db,
    analytics,
    bus,
    logger: logger.child({ module: "voltage-events" }),
    addCommandSource: grid.addCommandSource,
    structure: async (key) => (await monitoring.topology.get(key)).structure,
    cells: grid.cells,
    nominalVoltage: async (key) => {
      const pair = (await customers.service.getByKey(key))?.default_lv_nominal_voltage;
      return Number.parseFloat((pair ?? "230/400").split("/")[0] ?? "230") || 230;
    },
  });
  const exports = exportModule({
    db,
    analytics,
    connect: () => core.timeSeries.connect(),
    bus,
    logger,
    topology: monitoring.topology,
    cells: grid.cells,
    store,
    dir: config.dataDir === ":memory:"
      ? `${Deno.makeTempDirSync({ prefix: "gridwatch-exports-" })}`
      : `${config.dataDir}/exports`,
    customerFormat: async (key) => {
      const customer = await customers.service.getByKey(key);
      return {
        timezone: customer?.default_timezone || "UTC",
        numberFormat: customer?.default_number_format || "1234.56",
      };
    },
  });
  const apiClients = apiClientsModule({
    db,
    logger: logger.child({ module: "api-clients" }),
    publicUrl: config.publicUrl,
    tokens: identity.clientTokens,
    tenants: customers.service.tenants,
    cells: grid.cells,
    store,
    analytics,
    bus,
    rawLifetimeDays: config.rawLifetimeDays,
    version: pkg.version,
    limits: {
      clients: config.apiClients.maxClients,
      tokensPerMonth: config.apiClients.tokensPerMonth,
    },
    ratePerMinute: config.apiClients.ratePerMinute,
    pq: { reports: powerQuality.external, events: voltageEvents.external },
  });
  const scada = scadaModule({
    db,
    bus,
    logger: logger.child({ module: "scada" }),
    cells: grid.cells,
    topology: monitoring.topology,
    gridStatus: monitoring.gridStatus,
    store,
  });
  // Closed in the reverse order: the core (DuckDB) after every module that reads it.
  const modules: PlatformModule[] = [
    core,
    // Before identity: its /oidc/token middleware answers client credentials ahead of the proxy.
    apiClients,
    identity,
    customers,
    users,
    grid,
    monitoring,
    statisticsModule({ analytics, topology: monitoring.topology, cells: grid.cells, store }),
    notifications,
    ioMonitoring,
    ingestion,
    powerQuality,
    voltageEvents,
    exports,
    scada,
  ];

  const app = createHttpApp(logger);
  app.use(inputGate(modules.flatMap((m) => m.bodyLimits ?? [])));
  app.get("/health", (c) => c.json({ status: "ok", version: pkg.version }));
  app.get("/config.json", (c) =>
    c.json(
      {
        appName: APP_NAME,
        version: pkg.version,
        vendorUrl: config.vendorUrl ?? "",
        oidc: identity.web,
        defaultStartPage: "/grid-monitoring",
        defaultStartPageKey: "hes:data-export",
        appsOpenToAll: ["user-settings", "app:api-doc"],
        helpBaseUrl: "/help",
        sessionInactivityMinutes: config.sessionInactivityMinutes,
        publicUrl: config.publicUrl,
      } satisfies WebConfig,
    ));
  mountModules(app, modules, verifier, customers.service.tenants);
  app.use("*", serveWebApp(config.webDist, API_PREFIXES));
  for (const module of modules) await module.start?.();

  return {
    app,
    config,
    services: {
      db,
      analytics,
      customers: customers.service,
      cells: grid.cells,
      onboarding: grid.onboarding,
      measurements: store,
      aggregator: core.aggregator,
      gridStatus: monitoring.gridStatus,
      bus,
      notifications,
      ioMonitoring,
      ingestion,
      powerQuality,
      voltageEvents,
      exports,
      scada,
    },
    close: async () => {
      for (const module of [...modules].reverse()) {
        try {
          await module.close?.();
        } catch (error) {
          logger.error("A module failed to stop", { module: module.name, error });
        }
      }
      await database.close();
    },
  };
}

/**
 * Mounts every module: public routes first (they answer without a user), then authentication
 * and the tenant middleware on each API prefix, then the API routes.
 */
function mountModules(
  app: Hono<AppEnv>,
  modules: readonly PlatformModule[],
  verifier: TokenVerifier,
  tenants: TenantDirectory,
): void {
  const known = new Set<string>([...API_PREFIXES, "/"]);
  const mounts = modules.flatMap((m) => [...(m.public ?? []), ...(m.api ?? [])]);
  const stray = mounts.find((mount) => !known.has(mount.prefix));
  if (stray) throw new Error(`Prefix ${stray.prefix} is missing from kernel/api_prefixes.ts`);
  for (const mount of modules.flatMap((m) => m.public ?? [])) app.route(mount.prefix, mount.routes);
  const guarded = new Set(modules.flatMap((m) => (m.api ?? []).map((mount) => mount.prefix)));
  const auth = requireAuth(verifier);
  const scope = tenant(tenants);
  for (const prefix of guarded) app.use(`${prefix}/*`, auth, scope);
  for (const mount of modules.flatMap((m) => m.api ?? [])) app.route(mount.prefix, mount.routes);
}

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig(Deno.env.toObject());
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      Deno.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  const platform = await startPlatform(config, logger);
  const server = Deno.serve({
    port: config.port,
    hostname: config.host,
    onListen: ({ hostname, port }) =>
      logger.info("Listening", { hostname, port, publicUrl: config.publicUrl }),
  }, platform.app.fetch);

  const stopSimulation = config.demoSeed && config.simulator
    ? startDemoSimulation({
      ...platform.services,
      store: platform.services.measurements,
      logger: logger.child({ module: "demo" }),
      baseUrl: `http://127.0.0.1:${config.port}`,
      backfillDays: config.simulatorBackfillDays,
      rawLifetimeDays: config.rawLifetimeDays,
    })
    : () => Promise.resolve();
  const stopFieldCells = config.demoSeed && config.simulator
    ? await startFieldCellPolling({
      cells: platform.services.cells,
      onboarding: platform.services.onboarding,
      customerKeyOf: async (name) =>
        (await platform.services.customers.tenants.byConnection(name))?.key ?? null,
      logger: logger.child({ module: "demo" }),
      baseUrl: `http://127.0.0.1:${config.port}`,
    })
    : () => Promise.resolve();

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info("Shutting down", { signal });
    await Promise.all([stopSimulation(), stopFieldCells()]);
    await server.shutdown();
    try {
      await platform.close();
    } catch (error) {
      logger.error("Shutdown failed", { error });
      Deno.exit(1);
    }
    logger.info("Stopped");
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGINT", () => void stop("SIGINT"));
  Deno.addSignalListener("SIGTERM", () => void stop("SIGTERM"));
}

if (import.meta.main) await main();

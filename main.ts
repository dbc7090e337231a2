/**
 * Composition root: config -> stores -> event bus -> modules -> Hono app -> serve.
 * `startPlatform` is also what integration and end-to-end tests start.
 */
import { Aggregator, MeasurementStore, openTimeSeriesStore, pruneRaw } from "./core/mod.ts";
import { customerRoutes, CustomersService } from "./modules/customers/mod.ts";
import { seedDemo, startDemoSimulation, startFieldCellPolling } from "./modules/demo/mod.ts";
import {
  cellConfigRoutes,
  CellsService,
  cellsSetupRoutes,
  cellsSetupServices,
  gridRoutes,
} from "./modules/grid/mod.ts";
import { createIdentity } from "./modules/identity/mod.ts";
import { ingestionRoutes } from "./modules/ingestion/mod.ts";
import { createIoMonitoring, type IoMonitoring } from "./modules/io_monitoring/mod.ts";
import { createNotificationCentre, type NotificationCentre } from "./modules/notifications/mod.ts";
import {
  statisticsRoutes,
  StatisticsService,
  topologyDirectory,
} from "./modules/statistics/mod.ts";
import {
  GridStatusService,
  monitoringRoutes,
  startCustomMonitoring,
  TopologyCache,
} from "./modules/monitoring/mod.ts";
import {
  type AppConfig,
  type AppEnv,
  ConfigError,
  createHttpApp,
  createLogger,
  type Db,
  EventBus,
  loadConfig,
  type Logger,
  migrate,
  openDatabase,
  requireAuth,
  serveWebApp,
} from "./kernel/mod.ts";
import {
  emailValidationRoutes,
  ProfileService,
  userRoutes,
  UsersService,
} from "./modules/users/mod.ts";
import type { DuckDBConnection } from "@duckdb/node-api";
import type { Hono } from "hono";
import pkg from "./package.json" with { type: "json" };

/** Path prefixes answered by the server, never by the web app's index.html. */
export const API_PREFIXES = [
  "/csm",
  "/usm",
  "/nsm",
  "/gsm",
  "/evm",
  "/vsm",
  "/pqm",
  "/pqe",
  "/iom",
  "/ingest",
  "/api",
  "/oidc",
  "/health",
];
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
    measurements: MeasurementStore;
    aggregator: Aggregator;
    gridStatus: GridStatusService;
    /** The event bus (tests publish integration events through it). */
    bus: EventBus;
    notifications: NotificationCentre;
    /** IO monitoring (tests drive its state-change watcher). */
    ioMonitoring: IoMonitoring;
  };
  close(): Promise<void>;
}

/** Opens the stores, migrates, seeds the demo when enabled, and assembles every module. */
export async function startPlatform(
  config: AppConfig,
  logger: Logger = createLogger(config.logLevel),
): Promise<Platform> {
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  const applied = await migrate(database);
  if (applied.length) logger.info("Migrations applied", { applied, database: database.kind });
  const timeSeries = await openTimeSeriesStore(
    config.dataDir,
    config.duckdbMemoryLimit,
    config.duckdbCheckpointThreshold,
  );
  const bus = new EventBus(logger);
  const aggregator = new Aggregator(timeSeries.aggregation);
  const measurements = await MeasurementStore.open(timeSeries.writer, async () => {
    logger.warn("Reopening the time-series store after a fatal DuckDB error");
    await timeSeries.reopen();
    // Slots of a batch committed durably but answered 503 are recomputed from the file.
    await aggregator.recover();
  });
  measurements.onSlotsTouched((slots) => aggregator.markDirty(slots));
  await aggregator.recover();
  const aggregation = setInterval(() => {
    aggregator.flush().catch((error) => logger.error("Aggregation failed", { error }));
  }, 10_000);
  const prune = () =>
    pruneRaw(timeSeries.connection, config.rawLifetimeDays)
      .then((rows) => rows && logger.info("Raw data past its lifetime deleted", { rows }))
      .catch((error) => logger.error("Raw data pruning failed", { error }));
  await prune();
  const retention = setInterval(prune, 3_600_000);

  const customers = new CustomersService(database.db);
  const users = new UsersService(database.db, (key) => customers.getByKey(key));
  const profiles = new ProfileService(database.db, {
    customerOf: (key) => customers.getByKey(key),
    bus,
    publicUrl: config.publicUrl,
  });
  const cells = new CellsService(database.db);
  if (config.demoSeed) {
    await seedDemo({ db: database.db, customers, users, cells, logger, bus });
  }
  // One topology per customer serves the grid status and visual statistics.
  const topology = new TopologyCache(database.db, cells, measurements);
  const gridStatus = new GridStatusService(
    topology,
    measurements,
    customers,
  );
  const monitor = setInterval(async () => {
    try {
      await gridStatus.publishChanges(bus, await customers.allKeys());
    } catch (error) {
      logger.error("Grid status evaluation failed", { error });
    }
  }, 20_000);
  const customMonitoring = await startCustomMonitoring({
    db: database.db,
    cells,
    allCustomerKeys: () => customers.allKeys(),
    store: measurements,
    connection: timeSeries.connection,
    bus,
    logger: logger.child({ module: "custom-monitoring" }),
  });

  const identity = await createIdentity({
    publicUrl: config.publicUrl,
    appName: APP_NAME,
    db: database.db,
    users,
    customers,
    logger,
    external: config.externalOidc,
    accessTokenTtl: config.accessTokenTtl,
  });

  const app = createHttpApp(logger);
  app.get("/health", (c) => c.json({ status: "ok", version: pkg.version }));
  app.get("/config.json", (c) =>
    c.json({
      appName: APP_NAME,
      version: pkg.version,
      vendorUrl: "https://github.com/",
      oidc: identity.web,
      defaultStartPage: "/data-export",
      defaultStartPageKey: "hes:data-export",
      appsOpenToAll: ["user-settings", "app:api-doc"],
      helpBaseUrl: "/help",
      sessionInactivityMinutes: config.sessionInactivityMinutes,
    }));
  if (identity.routes) app.route("/", identity.routes);

  const auth = requireAuth(identity.verifier);
  const customerKeyOf = async (name: string) =>
    (await customers.getByConnection(name))?.key ?? null;
  // The e-mail validation link comes from a mail: it is public, so it is mounted before auth.
  app.route("/usm", emailValidationRoutes(profiles));
  for (const prefix of ["/csm", "/usm", "/gsm", "/evm", "/iom", "/vsm"]) {
    app.use(`${prefix}/*`, auth);
  }
  app.route("/csm", customerRoutes(customers));
  app.route("/usm", userRoutes(users, profiles, customerKeyOf));
  app.route("/gsm", gridRoutes(database.db, customerKeyOf, bus));
  const cellsSetup = cellsSetupServices({
    db: database.db,
    bus,
    store: measurements,
    analytics: timeSeries.connection,
  });
  app.route("/gsm", cellsSetupRoutes(cellsSetup, customerKeyOf));
  app.route("/ingest", cellConfigRoutes({ cells, mapping: cellsSetup.mapping }));
  app.route("/evm", monitoringRoutes(gridStatus, customerKeyOf, customMonitoring));
  app.route(
    "/vsm",
    statisticsRoutes(
      new StatisticsService(
        timeSeries.connection,
        topologyDirectory({ topology, cells, store: measurements }),
      ),
      customerKeyOf,
    ),
  );
  const notifications = createNotificationCentre({
    db: database.db,
    bus,
    users,
    verifier: identity.verifier,
    auth,
    customerKeyOf,
    logger,
    smtpUrl: config.smtpUrl,
    mailFrom: config.mailFrom,
    e2eHooks: config.e2eHooks,
  });
  app.route("/nsm", notifications.routes);
  const ioMonitoring = createIoMonitoring({
    db: database.db,
    analytics: timeSeries.connection,
    bus,
    logger: logger.child({ module: "io-monitoring" }),
    customerOf: (name) => customers.getByConnection(name),
    onCommit: (listener) => measurements.onSlotsTouched(listener),
  });
  app.route("/iom", ioMonitoring.routes);
  app.route(
    "/ingest",
    ingestionRoutes({ cells, store: measurements, rawLifetimeDays: config.rawLifetimeDays }),
  );
  app.use("*", serveWebApp(config.webDist, API_PREFIXES));

  return {
    app,
    config,
    services: {
      db: database.db,
      analytics: timeSeries.connection,
      customers,
      cells,
      measurements,
      aggregator,
      gridStatus,
      bus,
      notifications,
      ioMonitoring,
    },
    close: async () => {
      await ioMonitoring.close();
      await notifications.close();
      clearInterval(aggregation);
      clearInterval(retention);
      clearInterval(monitor);
      await aggregator.flush().catch(() => undefined);
      await customMonitoring.close();
      await identity.close();
      await timeSeries.close();
      await database.close();
    },
  };
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
      customerKeyOf: async (name) =>
        (await platform.services.customers.getByConnection(name))?.key ?? null,
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

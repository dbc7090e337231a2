/**
 * SCADA profiles and their point lists: the rules of spec 5 (IP address valid, TCP port
 * 1024-65535, address 1-65535, an ASDU in use cannot be reassigned) on top of the contract's
 * schemas, and a hook that tells the connector which profiles changed.
 */
import { and, asc, count, eq, inArray, ne } from "drizzle-orm";
import type { StationGroupDto } from "../grid/mod.ts";
import { AppError, type Db, validationError } from "../../kernel/mod.ts";
import {
  type AddedPointsDto,
  type AddPointsData,
  type DeadbandsDto,
  type ExtraQuantity,
  IEC104_DEFAULTS,
  isPhaseQuantity,
  NO_DEADBANDS,
  planAddedPoints,
  type PointListDto,
  type ProfileData,
  type ProfileDto,
  type Quantity,
  type ScadaNodeDto,
  type TimersDto,
} from "./contract.ts";
import {
  describePoints,
  generatePoints,
  lvFeeders,
  nodesInOrder,
  type StoredPoint,
} from "./points.ts";
import { renderPointsPdf } from "./points_pdf.ts";
import type { PdfLanguage } from "./points_pdf_texts.ts";
import { points, profiles } from "./schema.ts";

type ProfileRow = typeof profiles.$inferSelect;

/** A profile as the connector runs it: everything it needs, for every customer. */
export interface RunningProfile {
  id: string;
  customerKey: string;
  name: string;
  ipAddress: string;
  port: number;
  asdu: number;
  activated: boolean;
  timers: TimersDto;
  deadbands: DeadbandsDto;
  points: StoredPoint[];
}

/** What the service reads about the grid: a customer's structure (feeder order). */
export interface StructureSource {
  structure(customerKey: string): Promise<StationGroupDto[]>;
}

const timersOf = (row: ProfileRow): TimersDto => ({
  t0: row.t0,
  t1: row.t1,
  t2: row.t2,
  t3: row.t3,
  k: row.k,
  w: row.w,
});

const deadbandsOf = (row: ProfileRow): DeadbandsDto => ({ ...NO_DEADBANDS, ...row.deadbands });

const toStored = (row: typeof points.$inferSelect): StoredPoint => ({
  ioa: row.ioa,
  node_id: row.nodeId,
  feeder_id: row.feederId,
  quantity: row.quantity as Quantity,
  phase: row.phase,
  activated: row.activated,
});

/** Profiles and points; `changed` is called after every write with the profile's id. */
export class ScadaService {
  #changed: ((profileId: string) => void)[] = [];

  constructor(private readonly db: Db, private readonly grid: StructureSource) {}

  /** Registers a listener for written profiles (the connector reopens their listeners). */
  onChanged(listener: (profileId: string) => void): void {
    this.#changed.push(listener);
  }

  #notify(id: string): void {
    for (const listener of this.#changed) listener(id);
  }

  async #counts(ids: string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (!ids.length) return out;
    const rows = await this.db.select({ profileId: points.profileId, n: count() }).from(points)
      .where(inArray(points.profileId, ids)).groupBy(points.profileId);
    for (const r of rows) out.set(r.profileId, Number(r.n));
    return out;
  }

  #dto(row: ProfileRow, count: number): ProfileDto {
    return {
      id: row.id,
      name: row.name,
      ip_address: row.ipAddress,
      port: row.port,
      asdu: row.asdu,
      activated: row.activated,
      timers: timersOf(row),
      deadbands: deadbandsOf(row),
      point_count: count,
      updated_at: row.updatedAt.toISOString(),
    };
  }

  /** The customer's profiles by name. */
  async list(customerKey: string): Promise<ProfileDto[]> {
    const rows = await this.db.select().from(profiles)
      .where(eq(profiles.customerKey, customerKey)).orderBy(asc(profiles.name));
    const counts = await this.#counts(rows.map((r) => r.id));
    return rows.map((r) => this.#dto(r, counts.get(r.id) ?? 0));
  }

  async #own(customerKey: string, id: string): Promise<ProfileRow> {
    if (!/^[\w-]{1,64}$/.test(id)) throw new AppError("common.notFound");
    const [row] = await this.db.select().from(profiles).where(eq(profiles.id, id));
    if (!row || row.customerKey !== customerKey) throw new AppError("common.notFound");
    return row;
  }

  /** The rules across profiles: a port serves one profile, an ASDU one profile per customer. */
  async #checkUnique(customerKey: string, data: ProfileData, id: string | null): Promise<void> {
    const others = id ? ne(profiles.id, id) : undefined;
    const [port] = await this.db.select({ id: profiles.id }).from(profiles)
      .where(and(eq(profiles.port, data.port), others));
    const [asdu] = await this.db.select({ id: profiles.id }).from(profiles)
      .where(and(eq(profiles.customerKey, customerKey), eq(profiles.asdu, data.asdu), others));
    const issues = [];
    if (port) issues.push({ path: "port", key: "validation.scadaPortInUse", params: {} });
    if (asdu) issues.push({ path: "asdu", key: "validation.asduInUse", params: {} });
    if (issues.length) throw validationError(issues);
  }

  async create(customerKey: string, data: ProfileData): Promise<ProfileDto> {
    await this.#checkUnique(customerKey, data, null);
    const timers = data.timers ?? IEC104_DEFAULTS;
    const id = crypto.randomUUID();
    const [row] = await this.db.insert(profiles).values({
      id,
      customerKey,
      name: data.name,
      ipAddress: data.ip_address,
      port: data.port,
      asdu: data.asdu,
      activated: data.activated,
      ...timers,
      deadbands: data.deadbands ?? NO_DEADBANDS,
    }).returning();
    this.#notify(id);
    return this.#dto(row!, 0);
  }

  async update(customerKey: string, id: string, data: ProfileData): Promise<ProfileDto> {
    const held = await this.#own(customerKey, id);
    await this.#checkUnique(customerKey, data, id);
    const timers = data.timers ?? timersOf(held);
    const [row] = await this.db.update(profiles).set({
      name: data.name,
      ipAddress: data.ip_address,
      port: data.port,
      asdu: data.asdu,
      activated: data.activated,
      ...timers,
      deadbands: data.deadbands ?? deadbandsOf(held),
      updatedAt: new Date(),
    }).where(eq(profiles.id, id)).returning();
    this.#notify(id);
    const counts = await this.#counts([id]);
    return this.#dto(row!, counts.get(id) ?? 0);
  }

  async remove(customerKey: string, id: string): Promise<void> {
    await this.#own(customerKey, id);
    await this.db.transaction(async (tx) => {
      await tx.delete(points).where(eq(points.profileId, id));
      await tx.delete(profiles).where(eq(profiles.id, id));
    });
    this.#notify(id);
  }

  async #stored(id: string): Promise<StoredPoint[]> {
    const rows = await this.db.select().from(points).where(eq(points.profileId, id))
      .orderBy(asc(points.position));
    return rows.map(toStored);
  }

  /** The profile's points in feeder order, named from the grid structure. */
  async points(customerKey: string, id: string): Promise<PointListDto> {
    await this.#own(customerKey, id);
    const structure = await this.grid.structure(customerKey);
    return { profile_id: id, points: describePoints(structure, await this.#stored(id)) };
  }

  /** The point list as a PDF for the SCADA engineer, with the profile's name. */
  async pointsPdf(
    customerKey: string,
    id: string,
    language: PdfLanguage,
  ): Promise<{ name: string; pdf: Uint8Array }> {
    const row = await this.#own(customerKey, id);
    const structure = await this.grid.structure(customerKey);
    const list = describePoints(structure, await this.#stored(id));
    const profile = { name: row.name, ip_address: row.ipAddress, port: row.port, asdu: row.asdu };
    return { name: row.name, pdf: await renderPointsPdf(profile, list, language) };
  }

  /**
   * Replaces the point list (its order is the feeder order). Refused: a repeated address, a
   * node or feeder the customer does not have, U/I without feeder and phase.
   */
  async setPoints(customerKey: string, id: string, list: StoredPoint[]): Promise<PointListDto> {
    await this.#own(customerKey, id);
    const structure = await this.grid.structure(customerKey);
    const feedersOf = new Map<string, Set<string>>();
    for (const g of structure) {
      for (const m of g.mv_feeder_groups) {
        for (const l of m.lv_groups) {
          for (const n of l.nodes) feedersOf.set(n.id, new Set(n.feeders.map((f) => f.id)));
        }
      }
    }
    const issues = [];
    const seen = new Set<number>();
    for (const [k, p] of list.entries()) {
      if (seen.has(p.ioa)) {
        issues.push({ path: `points.${k}.ioa`, key: "validation.scadaAddressInUse", params: {} });
      }
      seen.add(p.ioa);
      const feeders = feedersOf.get(p.node_id);
      if (!feeders) {
        issues.push({ path: `points.${k}.node_id`, key: "grid.elementNotFound", params: {} });
      } else if (isPhaseQuantity(p.quantity)) {
        if (!p.feeder_id || !feeders.has(p.feeder_id)) {
          issues.push({ path: `points.${k}.feeder_id`, key: "grid.elementNotFound", params: {} });
        }
        if (p.phase === null) {
          issues.push({ path: `points.${k}.phase`, key: "validation.required", params: {} });
        }
      }
      if (issues.length >= 20) break;
    }
    if (issues.length) throw validationError(issues);
    const clean = list.map((p) =>
      isPhaseQuantity(p.quantity) ? p : { ...p, feeder_id: null, phase: null }
    );
    await this.#write(id, clean);
    return { profile_id: id, points: describePoints(structure, clean) };
  }

  async #write(id: string, list: StoredPoint[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.delete(points).where(eq(points.profileId, id));
      for (let start = 0; start < list.length; start += 1000) {
        await tx.insert(points).values(
          list.slice(start, start + 1000).map((p, k) => ({
            profileId: id,
            position: start + k,
            ioa: p.ioa,
            nodeId: p.node_id,
            feederId: p.feeder_id,
            quantity: p.quantity,
            phase: p.phase,
            activated: p.activated,
          })),
        );
      }
      await tx.update(profiles).set({ updatedAt: new Date() }).where(eq(profiles.id, id));
    });
    this.#notify(id);
  }

  /** Fills the profile with the default list, plus the `extra` values (replacing what it held). */
  async generate(
    customerKey: string,
    id: string,
    extra: readonly ExtraQuantity[] = [],
  ): Promise<PointListDto> {
    await this.#own(customerKey, id);
    const structure = await this.grid.structure(customerKey);
    const list = generatePoints(structure, 1, extra);
    await this.#write(id, list);
    return { profile_id: id, points: describePoints(structure, list) };
  }

  /**
   * Adds `quantities` for the chosen nodes (and feeders) to the profile's list without touching
   * its points (planAddedPoints). Refused: an unknown node or feeder, more than
   * SCADA_LIMITS.pointsMax points, no free address left.
   */
  async addPoints(customerKey: string, id: string, input: AddPointsData): Promise<AddedPointsDto> {
    await this.#own(customerKey, id);
    const structure = await this.grid.structure(customerKey);
    const byId = new Map(nodesInOrder(structure).map((n) => [n.id, n]));
    const chosen = new Set(input.node_ids);
    const issues = [];
    for (const [k, nodeId] of input.node_ids.entries()) {
      if (!byId.has(nodeId)) {
        issues.push({ path: `node_ids.${k}`, key: "grid.elementNotFound", params: {} });
      }
      if (issues.length >= 20) break;
    }
    const feedersOfChosen = new Set(
      [...chosen].flatMap((n) => byId.get(n) ? lvFeeders(byId.get(n)!).map((f) => f.id) : []),
    );
    for (const [k, feederId] of (input.feeder_ids ?? []).entries()) {
      if (!feedersOfChosen.has(feederId)) {
        issues.push({ path: `feeder_ids.${k}`, key: "grid.elementNotFound", params: {} });
      }
      if (issues.length >= 20) break;
    }
    if (issues.length) throw validationError(issues);
    // The chosen nodes in feeder order (the order new points take when they go to the end).
    const nodes = nodesInOrder(structure).filter((n) => chosen.has(n.id))
      .map((n) => ({ id: n.id, feeders: lvFeeders(n) }));
    const plan = planAddedPoints(
      await this.#stored(id),
      nodes,
      input.quantities,
      input.feeder_ids,
    );
    if (plan.problem) {
      throw validationError([{ path: "quantities", ...plan.problem }]);
    }
    if (plan.added) await this.#write(id, plan.points);
    return {
      profile_id: id,
      points: describePoints(structure, plan.points),
      added: plan.added,
    };
  }

  /** The customer's nodes in feeder order with their LV feeders (what points may name). */
  async nodes(customerKey: string): Promise<ScadaNodeDto[]> {
    const structure = await this.grid.structure(customerKey);
    return nodesInOrder(structure).map((n) => ({
      id: n.id,
      name: `${n.electrical_work.name} / ${n.name}`,
      feeders: lvFeeders(n).map((f) => ({ id: f.id, name: f.name })),
    }));
  }

  /** One profile as the connector runs it (null when deleted). */
  async running(id: string): Promise<RunningProfile | null> {
    const [row] = await this.db.select().from(profiles).where(eq(profiles.id, id));
    if (!row) return null;
    return this.#running(row);
  }

  async #running(row: ProfileRow): Promise<RunningProfile> {
    return {
      id: row.id,
      customerKey: row.customerKey,
      name: row.name,
      ipAddress: row.ipAddress,
      port: row.port,
      asdu: row.asdu,
      activated: row.activated,
      timers: timersOf(row),
      deadbands: deadbandsOf(row),
      points: await this.#stored(row.id),
    };
  }

  /** Every activated profile of the installation (the connector's start). */
  async allActivated(): Promise<RunningProfile[]> {
    const rows = await this.db.select().from(profiles).where(eq(profiles.activated, true));
    return await Promise.all(rows.map((r) => this.#running(r)));
  }
}

/**
 * The three group levels of the grid (spec 3): station groups > MV feeder groups > LV groups,
 * created, renamed and deleted by one table-driven set of operations. Each level names its
 * table, its parent (none for station groups), the children that block a delete (spec 5) and
 * the answer it gives. Every change runs in one transaction that locks the parent (create) or
 * the group itself (update, delete).
 */
import { eq } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { AppError, type Db } from "../../../kernel/mod.ts";
import { lvGroups, mvFeederGroups, mvTopologySections, nodes, stationGroups } from "../schema.ts";
import {
  type Executor,
  findLvGroup,
  findMvFeederGroup,
  findStation,
  newId,
  type Tx,
} from "./access.ts";
import type {
  GroupNameInput,
  LvGroupAnswer,
  MvFeederGroupAnswer,
  NewLvGroupInput,
  NewMvFeederGroupInput,
  StationGroupAnswer,
  StationGroupInput,
} from "./contract.ts";

type Find = (tx: Executor, customerKey: string, id: string, lock?: boolean) => Promise<unknown>;

/** One group level: what the generic operations need to know of it. */
interface GroupLevel<New, Change, Row, Answer> {
  table: PgTable & { id: PgColumn };
  /** The group of the customer (404 otherwise). */
  find: (tx: Executor, customerKey: string, id: string, lock?: boolean) => Promise<Row>;
  /** The parent named in a new group's input, and its lookup. */
  parent?: { id: (input: New) => string; find: Find };
  /** The row a new group inserts. */
  row: (id: string, customerKey: string, input: New) => Record<string, unknown>;
  /** The columns a change sets. */
  changes: (input: Change) => Record<string, unknown>;
  /** The answer of a group row. */
  answer: (row: Row) => Answer;
  /** Children that block a delete, and the refusal (spec 5). */
  children: { table: PgTable; parent: PgColumn; refusal: string };
  /** What goes with the group (its MV topology). */
  cleanup?: (tx: Tx, id: string) => Promise<void>;
}

type StationRow = typeof stationGroups.$inferSelect;
type MvRow = typeof mvFeederGroups.$inferSelect;
type LvRow = typeof lvGroups.$inferSelect;

const station: GroupLevel<StationGroupInput, StationGroupInput, StationRow, StationGroupAnswer> = {
  table: stationGroups,
  find: findStation,
  row: (id, customerKey, input) => ({ id, customerKey, ...station.changes(input) }),
  changes: (input) => ({ name: input.name, latitude: input.latitude, longitude: input.longitude }),
  answer: (r) => ({ id: r.id, name: r.name, latitude: r.latitude, longitude: r.longitude }),
  children: {
    table: mvFeederGroups,
    parent: mvFeederGroups.stationGroupId,
    refusal: "validation.deleteStationHasMvFeeders",
  },
};

const mvFeederGroup: GroupLevel<NewMvFeederGroupInput, GroupNameInput, MvRow, MvFeederGroupAnswer> =
  {
    table: mvFeederGroups,
    find: findMvFeederGroup,
    parent: { id: (input) => input.station_group_id, find: findStation },
    row: (id, _customerKey, input) => ({
      id,
      stationGroupId: input.station_group_id,
      name: input.name,
    }),
    changes: (input) => ({ name: input.name }),
    answer: (r) => ({ id: r.id, station_group_id: r.stationGroupId, name: r.name }),
    children: {
      table: lvGroups,
      parent: lvGroups.mvFeederGroupId,
      refusal: "validation.deleteMvFeederHasLvGrids",
    },
    cleanup: async (tx, id) => {
      await tx.delete(mvTopologySections).where(eq(mvTopologySections.mvFeederGroupId, id));
    },
  };

const lvGroup: GroupLevel<NewLvGroupInput, GroupNameInput, LvRow, LvGroupAnswer> = {
  table: lvGroups,
  find: findLvGroup,
  parent: { id: (input) => input.mv_feeder_group_id, find: findMvFeederGroup },
  row: (id, _customerKey, input) => ({
    id,
    mvFeederGroupId: input.mv_feeder_group_id,
    name: input.name,
  }),
  changes: (input) => ({ name: input.name }),
  answer: (r) => ({ id: r.id, mv_feeder_group_id: r.mvFeederGroupId, name: r.name }),
  children: { table: nodes, parent: nodes.lvGroupId, refusal: "validation.deleteLvGridHasNodes" },
};

/** The group levels by their name in the setup calls. */
export const GROUP_LEVELS = { station, mvFeederGroup, lvGroup } as const;

/** Create, rename and delete of one group level for a customer. */
export class GroupOperations<New, Change, Row, Answer> {
  constructor(
    private readonly db: Db,
    private readonly level: GroupLevel<New, Change, Row, Answer>,
  ) {}

  /** Creates a group below its parent (locked, so a concurrent delete of it waits). */
  async create(customerKey: string, input: New): Promise<Answer> {
    const { table, parent } = this.level;
    return await this.db.transaction(async (tx) => {
      if (parent) await parent.find(tx, customerKey, parent.id(input), true);
      const [row] = await tx.insert(table).values(this.level.row(newId(), customerKey, input))
        .returning();
      return this.level.answer(row as Row);
    });
  }

  /** Changes a group of the customer. */
  async update(customerKey: string, id: string, input: Change): Promise<Answer> {
    const { table } = this.level;
    return await this.db.transaction(async (tx) => {
      await this.level.find(tx, customerKey, id, true);
      const [row] = await tx.update(table).set(this.level.changes(input)).where(eq(table.id, id))
        .returning();
      return this.level.answer(row as Row);
    });
  }

  /** Deletes a group; refused while it has children (spec 5). */
  async delete(customerKey: string, id: string): Promise<void> {
    const { table, children, cleanup } = this.level;
    await this.db.transaction(async (tx) => {
      await this.level.find(tx, customerKey, id, true);
      const [child] = await tx.select({ id: children.parent }).from(children.table)
        .where(eq(children.parent, id)).limit(1);
      if (child) throw new AppError(children.refusal);
      await cleanup?.(tx, id);
      await tx.delete(table).where(eq(table.id, id));
    });
  }
}

/** The operations of the three group levels. */
export function groupOperations(db: Db) {
  return {
    stations: new GroupOperations(db, GROUP_LEVELS.station),
    mvFeederGroups: new GroupOperations(db, GROUP_LEVELS.mvFeederGroup),
    lvGroups: new GroupOperations(db, GROUP_LEVELS.lvGroup),
  };
}

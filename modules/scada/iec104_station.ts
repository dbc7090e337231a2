/**
 * The controlled station's answers to the control direction (IEC 60870-5-104 application
 * layer): general interrogation (C_IC_NA_1), clock synchronisation (C_CS_NA_1), test command
 * (C_TS_TA_1); any other type is mirrored negatively with cause 44, an unknown common address
 * with 46, an unknown cause with 45. Pure: the values come from `snapshot`.
 */
import {
  type Asdu,
  BROADCAST_CA,
  COT,
  decodeAsdu,
  FrameError,
  mirror,
  monitoringAsdus,
  type PointValue,
  readCp56,
  TYPE,
} from "./iec104_codec.ts";

/** The station's current values for a general interrogation (untimed types). */
export interface Snapshot {
  floats: PointValue[];
  singles: PointValue[];
}

/** What a received ASDU leads to: answers for the requesting connection, or closing it. */
export type StationAnswer =
  | { kind: "reply"; asdus: Uint8Array[]; clock?: number }
  | { kind: "close"; reason: string };

/** Body length (objects after the header) of each command understood. */
const COMMAND_BODY: Record<number, number> = {
  [TYPE.C_IC_NA_1]: 3 + 1,
  [TYPE.C_CS_NA_1]: 3 + 7,
  [TYPE.C_TS_TA_1]: 3 + 2 + 7,
};

/** Answers one ASDU received from the master. */
export function answer(bytes: Uint8Array, ca: number, snapshot: () => Snapshot): StationAnswer {
  let asdu: Asdu;
  try {
    asdu = decodeAsdu(bytes);
  } catch (error) {
    return { kind: "close", reason: (error as FrameError).message };
  }
  const expected = COMMAND_BODY[asdu.type];
  if (expected === undefined) {
    return { kind: "reply", asdus: [mirror(bytes, COT.UNKNOWN_TYPE, true)] };
  }
  if (asdu.sq || asdu.count !== 1 || asdu.body.length !== expected) {
    return { kind: "close", reason: `malformed ASDU of type ${asdu.type}` };
  }
  const broadcastable = asdu.type === TYPE.C_IC_NA_1 || asdu.type === TYPE.C_CS_NA_1;
  if (asdu.ca !== ca && !(broadcastable && asdu.ca === BROADCAST_CA)) {
    return { kind: "reply", asdus: [mirror(bytes, COT.UNKNOWN_COMMON_ADDRESS, true)] };
  }
  switch (asdu.type) {
    case TYPE.C_IC_NA_1:
      return interrogation(bytes, asdu, ca, snapshot);
    case TYPE.C_CS_NA_1: {
      if (asdu.cause !== COT.ACTIVATION) {
        return { kind: "reply", asdus: [mirror(bytes, COT.UNKNOWN_CAUSE, true, ca)] };
      }
      const time = readCp56(asdu.body, 3);
      if (!time) return { kind: "reply", asdus: [mirror(bytes, COT.ACTIVATION_CON, true, ca)] };
      return {
        kind: "reply",
        asdus: [mirror(bytes, COT.ACTIVATION_CON, false, ca)],
        clock: time.ms,
      };
    }
    default: {
      if (asdu.cause !== COT.ACTIVATION) {
        return { kind: "reply", asdus: [mirror(bytes, COT.UNKNOWN_CAUSE, true)] };
      }
      return { kind: "reply", asdus: [mirror(bytes, COT.ACTIVATION_CON, false)] };
    }
  }
}

function interrogation(
  bytes: Uint8Array,
  asdu: Asdu,
  ca: number,
  snapshot: () => Snapshot,
): StationAnswer {
  if (asdu.cause === COT.DEACTIVATION) {
    // The interrogation is answered at once: nothing runs to deactivate.
    return { kind: "reply", asdus: [mirror(bytes, COT.DEACTIVATION_CON, true, ca)] };
  }
  if (asdu.cause !== COT.ACTIVATION) {
    return { kind: "reply", asdus: [mirror(bytes, COT.UNKNOWN_CAUSE, true, ca)] };
  }
  const qoi = asdu.body[3]!;
  if (qoi !== 20) {
    // Group interrogations (21-36) are not supported: negative confirmation.
    return { kind: "reply", asdus: [mirror(bytes, COT.ACTIVATION_CON, true, ca)] };
  }
  const values = snapshot();
  const cause = COT.INTERROGATED_STATION;
  return {
    kind: "reply",
    asdus: [
      mirror(bytes, COT.ACTIVATION_CON, false, ca),
      ...monitoringAsdus(TYPE.M_ME_NC_1, cause, ca, values.floats, asdu.originator),
      ...monitoringAsdus(TYPE.M_SP_NA_1, cause, ca, values.singles, asdu.originator),
      mirror(bytes, COT.ACTIVATION_TERM, false, ca),
    ],
  };
}

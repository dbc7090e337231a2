/** @module Line-mapping validation from measured data (pure). */
export {
  MAPPING_LIMITS,
  type MappingCertainty,
  type MappingSample,
  type MappingValidation,
  type MappingVerdict,
  type PhaseSample,
  validateMapping,
  VERDICTS,
} from "./validator.ts";
export { type ProbeRow, readProbeRows, samplesForMapping } from "./probes.ts";

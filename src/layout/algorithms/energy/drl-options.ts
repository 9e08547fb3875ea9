// DrL's options (igraph_layout_drl_options_t): the edge cut and, for each stage of the schedule (init, liquid,
// expansion, cooldown, crunch, simmer), its iterations, temperature, attraction and damping multiplier. python-igraph
// takes a preset name or a mapping whose missing keys come from the "default" preset.
import { ComputeInputError } from "../../../compute/types.ts";

export const DRL_STAGES = ["init", "liquid", "expansion", "cooldown", "crunch", "simmer"] as const;
export type DrlStageName = (typeof DRL_STAGES)[number];
export type DrlStage = { iterations: number; temperature: number; attraction: number; damping_mult: number };
export type DrlOptions = { edge_cut: number } & Record<DrlStageName, DrlStage>;

const stage = (iterations: number, temperature: number, attraction: number, damping_mult: number): DrlStage => ({
  iterations,
  temperature,
  attraction,
  damping_mult,
});

/** igraph_layout_drl_options_init's five templates. */
export const DRL_PRESETS: Record<string, DrlOptions> = {
  default: {
    edge_cut: 32 / 40,
    init: stage(0, 2000, 10, 1),
    liquid: stage(200, 2000, 10, 1),
    expansion: stage(200, 2000, 2, 1),
    cooldown: stage(200, 2000, 1, 0.1),
    crunch: stage(50, 250, 1, 0.25),
    simmer: stage(100, 250, 0.5, 0),
  },
  coarsen: {
    edge_cut: 32 / 40,
    init: stage(0, 2000, 10, 1),
    liquid: stage(200, 2000, 2, 1),
    expansion: stage(200, 2000, 10, 1),
    cooldown: stage(200, 2000, 1, 0.1),
    crunch: stage(50, 250, 1, 0.25),
    simmer: stage(100, 250, 0.5, 0),
  },
  coarsest: {
    edge_cut: 32 / 40,
    init: stage(0, 2000, 10, 1),
    liquid: stage(200, 2000, 2, 1),
    expansion: stage(200, 2000, 10, 1),
    cooldown: stage(200, 2000, 1, 0.1),
    crunch: stage(200, 250, 1, 0.25),
    simmer: stage(100, 250, 0.5, 0),
  },
  refine: {
    edge_cut: 32 / 40,
    init: stage(0, 50, 0.5, 0),
    liquid: stage(0, 2000, 2, 1),
    expansion: stage(50, 500, 0.1, 0.25),
    cooldown: stage(50, 200, 1, 0.1),
    crunch: stage(50, 250, 1, 0.25),
    simmer: stage(0, 250, 0.5, 0),
  },
  final: {
    edge_cut: 32 / 40,
    init: stage(0, 50, 0.5, 0),
    liquid: stage(0, 2000, 2, 1),
    expansion: stage(50, 50, 0.1, 0.25),
    cooldown: stage(50, 200, 1, 0.1),
    crunch: stage(50, 250, 1, 0.25),
    simmer: stage(25, 250, 0.5, 0),
  },
};

const FIELDS = ["iterations", "temperature", "attraction", "damping_mult"] as const;
const KEYS = ["edge_cut", ...DRL_STAGES.flatMap((s) => FIELDS.map((f) => `${s}_${f}`))];

const copy = (o: DrlOptions): DrlOptions => ({
  edge_cut: o.edge_cut,
  init: { ...o.init },
  liquid: { ...o.liquid },
  expansion: { ...o.expansion },
  cooldown: { ...o.cooldown },
  crunch: { ...o.crunch },
  simmer: { ...o.simmer },
});

/** The options from a preset name or a mapping ({liquid_iterations: 100, edge_cut: 0, ...}); 400 on anything else. */
export function drlOptions(value: unknown, field = "options"): DrlOptions {
  if (value === undefined || value === null) return copy(DRL_PRESETS.default as DrlOptions);
  if (typeof value === "string") {
    const preset = DRL_PRESETS[value];
    if (!preset)
      throw new ComputeInputError(`${field} must be one of ${Object.keys(DRL_PRESETS).join(", ")} or a mapping of DrL options`, field);
    return copy(preset);
  }
  if (typeof value !== "object" || Array.isArray(value))
    throw new ComputeInputError(`${field} must be a preset name or a mapping of DrL options (${KEYS.join(", ")})`, field);
  const out = copy(DRL_PRESETS.default as DrlOptions);
  for (const [key, raw] of Object.entries(value as Record<string, unknown>)) {
    if (!KEYS.includes(key)) throw new ComputeInputError(`${field}.${key} is not a DrL option (${KEYS.join(", ")})`, field);
    if (typeof raw !== "number" || !Number.isFinite(raw)) throw new ComputeInputError(`${field}.${key} must be a finite number`, field);
    if (key === "edge_cut") {
      if (raw < 0 || raw > 1) throw new ComputeInputError(`${field}.edge_cut must be between 0 and 1`, field);
      out.edge_cut = raw;
      continue;
    }
    const cut = key.indexOf("_");
    const stageName = key.slice(0, cut) as DrlStageName;
    const name = key.slice(cut + 1) as (typeof FIELDS)[number];
    if (name === "iterations" && (!Number.isInteger(raw) || raw < 0))
      throw new ComputeInputError(`${field}.${key} must be a non-negative integer`, field);
    if (name === "damping_mult" && raw < 0) throw new ComputeInputError(`${field}.${key}: damping multipliers cannot be negative`, field);
    out[stageName][name] = raw;
  }
  return out;
}

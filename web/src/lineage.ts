// Population-based training's lineage, as the pages show it: what an exploit changed, and each
// trial's config over epochs (its schedule), from the sweep's exploits.
import { formatParam } from "./shape";
import type { Exploit } from "./types";

type Config = Record<string, unknown>;

/** "lr 0.01 → 0.012" for each parameter the exploit changed (the copied ones included). */
export function changes(exploit: Pick<Exploit, "old_config" | "new_config">): string[] {
  const { old_config: before, new_config: after } = exploit;
  return Object.keys(after)
    .filter((key) => before[key] !== after[key])
    .map((key) => `${key} ${formatParam(before[key])} → ${formatParam(after[key])}`);
}

/** One stretch of a trial's schedule: the config it trained with from epoch ``from`` on. */
export interface Stretch { from: number; config: Config; source: number | null }

/** A trial's schedule: its own config from epoch 1, then each exploit's from the epoch after it
 *  (``source``: the trial number whose weights it went on from). */
export function schedule(initial: Config, exploits: Exploit[]): Stretch[] {
  const ordered = [...exploits].sort((a, b) => a.epoch - b.epoch);
  return [
    { from: 1, config: initial, source: null },
    ...ordered.map((e) => ({ from: e.epoch + 1, config: e.new_config, source: e.source_trial_number })),
  ];
}

import { describe, expect, it } from "vitest";
import { changes, schedule } from "./lineage";
import type { Exploit } from "./types";

const exploit = (epoch: number, source: number, old_config: Record<string, unknown>, new_config: Record<string, unknown>) =>
  ({ epoch, source_trial_number: source, old_config, new_config }) as unknown as Exploit;

describe("lineage", () => {
  it("names what an exploit changed, and nothing it kept", () => {
    expect(changes(exploit(2, 1, { lr: 0.01, tag: "a", depth: 2 }, { lr: 0.012, tag: "b", depth: 2 })))
      .toEqual(["lr 0.01 → 0.012", "tag a → b"]);
  });
  it("builds a trial's schedule from its exploits, oldest first", () => {
    const later = exploit(4, 3, { lr: 0.2 }, { lr: 0.3 });
    const earlier = exploit(2, 1, { lr: 0.1 }, { lr: 0.2 });
    expect(schedule({ lr: 0.1 }, [later, earlier])).toEqual([
      { from: 1, config: { lr: 0.1 }, source: null },
      { from: 3, config: { lr: 0.2 }, source: 1 },
      { from: 5, config: { lr: 0.3 }, source: 3 },
    ]);
  });
});

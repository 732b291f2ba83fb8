import { describe, expect, it } from "vitest";
import { addedSampled, formatEarlier, parseEarlier, parseSpace, spanningSpace, versionChanges } from "./spaces";
import type { SpaceVersion } from "./types";

const V1: SpaceVersion = {
  version: 1, extension: 0, added: {}, removed: [], changed: [],
  search_space: {
    lr: { type: "loguniform", low: 1e-4, high: 1e-1 },
    hidden: { type: "int", low: 16, high: 256 },
    optimizer: { type: "choice", values: ["adam", "sgd"] },
  },
};
const V2: SpaceVersion = {
  version: 2, extension: 1, added: { dropout: 0 }, removed: ["optimizer"], changed: ["lr"],
  search_space: {
    lr: { type: "loguniform", low: 1e-3, high: 1e-1 },
    hidden: { type: "int", low: 16, high: 256 },
    dropout: { type: "uniform", low: 0, high: 0.5 },
  },
};

describe("parseSpace", () => {
  it("takes an object of parameters or a named space, and says why other text is neither", () => {
    expect(parseSpace('{"lr": {"type": "uniform", "low": 0, "high": 1}}')).toEqual({ space: { lr: { type: "uniform", low: 0, high: 1 } } });
    expect(parseSpace('"narrow"')).toEqual({ space: "narrow" });
    expect(parseSpace('{"lr": ')).toHaveProperty("error", expect.stringMatching(/^not JSON/));
    expect(parseSpace("[1, 2]")).toHaveProperty("error", expect.stringContaining("object of parameters"));
    expect(parseSpace("null")).toHaveProperty("error");
  });
});

describe("addedSampled", () => {
  it("names the sampled parameters the edited space adds, not constants nor the ones kept", () => {
    const edited = { ...V2.search_space, seed: { type: "constant", value: 3 }, depth: { type: "choice", values: [1, 2] } };
    expect(addedSampled(V1.search_space, edited)).toEqual(["dropout", "depth"]);
    expect(addedSampled(V1.search_space, V1.search_space)).toEqual([]);
    expect(addedSampled(V1.search_space, "narrow")).toEqual([]); // the server resolves a named space
    expect(addedSampled(undefined, { lr: V1.search_space.lr })).toEqual(["lr"]);
  });
});

describe("parseEarlier", () => {
  it("reads numbers as numbers, true/false as booleans, anything else as text", () => {
    expect(parseEarlier("0.0")).toBe(0);
    expect(parseEarlier(" 1e-3 ")).toBe(0.001);
    expect(parseEarlier("-2")).toBe(-2);
    expect(parseEarlier("true")).toBe(true);
    expect(parseEarlier("false")).toBe(false);
    expect(parseEarlier("adam")).toBe("adam");
    expect(parseEarlier("0x10")).toBe("0x10"); // not a decimal number: kept as typed
    expect(parseEarlier("True")).toBe("True");
  });
});

describe("versionChanges", () => {
  it("says what a version changed in the event's words, a float's whole value with its .0", () => {
    expect(versionChanges(V1)).toBe("submitted");
    expect(versionChanges(V2)).toBe("lr changed, dropout added (earlier 0.0), optimizer removed");
    expect(formatEarlier(2, { type: "int", low: 1, high: 4 })).toBe("2");
    expect(formatEarlier("adam", { type: "choice", values: ["adam"] })).toBe("'adam'");
    expect(formatEarlier(true, { type: "choice", values: [true, false] })).toBe("true");
    expect(formatEarlier(0.25, { type: "uniform", low: 0, high: 1 })).toBe("0.25");
  });
});

describe("spanningSpace", () => {
  it("spans every version: widest bounds, every choice, every parameter", () => {
    const spanned = spanningSpace([V1, V2]);
    expect(spanned.lr).toEqual({ type: "loguniform", low: 1e-4, high: 1e-1 });
    expect(spanned.optimizer).toEqual({ type: "choice", values: ["adam", "sgd"] });
    expect(spanned.dropout).toEqual({ type: "uniform", low: 0, high: 0.5 });
    const v3: SpaceVersion = { ...V2, version: 3, search_space: { optimizer: { type: "choice", values: ["sgd", "rmsprop"] }, lr: { type: "uniform", low: 0, high: 0.2 } } };
    const wider = spanningSpace([V1, V2, v3]);
    expect(wider.optimizer.values).toEqual(["adam", "sgd", "rmsprop"]);
    // a log range and a linear one from 0: linear, never a log axis from 0
    expect(wider.lr).toEqual({ type: "uniform", low: 0, high: 0.2 });
    const choice: SpaceVersion = { ...V2, version: 3, search_space: { hidden: { type: "choice", values: [32, 64] } } };
    expect(spanningSpace([V1, choice])).not.toHaveProperty("hidden"); // its axis fits the values drawn
  });
});

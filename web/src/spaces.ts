// A sweep's search spaces: what an extension's new space adds, the earlier values typed for
// it, how each version differs from the one before, and one space spanning every version.

import type { SpaceParameter } from "./shape";
import type { SpaceVersion } from "./types";

type Space = Record<string, unknown>;

/** A search space as typed (JSON): an object of parameters, or the name of a server-side
 *  space (a JSON string); ``error`` says why the text is neither. */
export function parseSpace(text: string): { space: Space | string } | { error: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (caught) {
    return { error: `not JSON: ${caught instanceof Error ? caught.message : String(caught)}` };
  }
  if (typeof parsed === "string") return { space: parsed };
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    return { error: "give an object of parameters (as a spec's search_space) or a space's name" };
  }
  return { space: parsed as Space };
}

/** The sampled parameters (type not "constant") ``edited`` has and ``current`` lacks, in the
 *  edited space's order: the earlier trials ran without them, so their value is asked for. */
export function addedSampled(current: unknown, edited: Space | string): string[] {
  if (typeof edited === "string") return []; // a named space: the server names what it adds
  const before = current !== null && typeof current === "object" ? (current as Space) : {};
  return Object.entries(edited)
    .filter(([name, parameter]) => !(name in before) && !isConstant(parameter))
    .map(([name]) => name);
}

function isConstant(parameter: unknown): boolean {
  return parameter !== null && typeof parameter === "object" && (parameter as { type?: unknown }).type === "constant";
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** An earlier value as typed: a number as a number, true/false as booleans, else the text. */
export function parseEarlier(text: string): number | boolean | string {
  const value = text.trim();
  if (NUMBER.test(value)) return Number(value);
  if (value === "true" || value === "false") return value === "true";
  return value;
}

const FLOAT_TYPES = ["uniform", "loguniform"];

/** An added parameter's earlier value as the server's event writes it: a float parameter's
 *  whole number with its ".0" (dropout 0.0), a text in quotes. */
export function formatEarlier(value: unknown, parameter: unknown): string {
  const type = parameter !== null && typeof parameter === "object" ? (parameter as { type?: unknown }).type : null;
  if (typeof value === "number" && Number.isInteger(value) && FLOAT_TYPES.includes(String(type))) return value.toFixed(1);
  if (typeof value === "string") return `'${value}'`;
  return value === undefined ? "?" : JSON.stringify(value);
}

/** What a version changed from the one before, in the event's words: "lr changed, dropout
 *  added (earlier 0.0), optimizer removed"; the submitted space's is "submitted". */
export function versionChanges(version: SpaceVersion): string {
  if (version.extension === 0) return "submitted";
  const parts = [
    ...version.changed.map((name) => `${name} changed`),
    ...Object.entries(version.added).map(([name, value]) => `${name} added (earlier ${formatEarlier(value, version.search_space[name])})`),
    ...version.removed.map((name) => `${name} removed`),
  ];
  return parts.join(", ") || "unchanged";
}

/** One space spanning every version, for the charts' axes: a range from the lowest low to
 *  the highest high (log only where every version's is: a linear one may start at 0), a
 *  choice's values in the order first seen. The trials of every version lie on its axes; a
 *  parameter whose kind changed (a range made a choice) is left out: its axis fits the values
 *  drawn, as for a parameter outside the space. */
export function spanningSpace(versions: SpaceVersion[]): Record<string, SpaceParameter> {
  const spanned: Record<string, SpaceParameter> = {};
  const mixed = new Set<string>();
  for (const { search_space: space } of versions) {
    for (const [name, raw] of Object.entries(space)) {
      const parameter = raw as SpaceParameter;
      const before = spanned[name];
      if (before && isRange(before) && isRange(parameter)) {
        const linear = !(isLog(before) && isLog(parameter));
        spanned[name] = {
          ...parameter, low: Math.min(before.low!, parameter.low!), high: Math.max(before.high!, parameter.high!),
          ...(linear && parameter.type === "loguniform" ? { type: "uniform" } : {}),
          ...(linear && parameter.type === "int" ? { log: false } : {}),
        };
      } else if (before && isChoice(before) && isChoice(parameter)) {
        const seen = new Map([...before.values!, ...parameter.values!].map((v) => [JSON.stringify(v), v]));
        spanned[name] = { ...parameter, values: [...seen.values()] };
      } else {
        if (before && kind(before) !== kind(parameter)) mixed.add(name);
        spanned[name] = { ...parameter };
      }
    }
  }
  for (const name of mixed) delete spanned[name];
  return spanned;
}

const isRange = (p: SpaceParameter) => typeof p.low === "number" && typeof p.high === "number";
const isChoice = (p: SpaceParameter) => Array.isArray(p.values);
const kind = (p: SpaceParameter) => (isRange(p) ? "range" : isChoice(p) ? "choice" : "other");
const isLog = (p: SpaceParameter) => p.type === "loguniform" || (p.type === "int" && p.log === true);

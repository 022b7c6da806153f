import { UNIT_STATE_PRECEDENCE } from "@/lib/domain/unit-state";

/** The CSS colour of a unit state; states outside the palette (e.g. "not expected yet") are grey. */
export const stateColour = (state: string) => `var(--state-${state.replace(/[^a-z_]/g, "_")}, #d1d5db)`;

const rank = (state: string) => {
  const i = (UNIT_STATE_PRECEDENCE as readonly string[]).indexOf(state);
  return i < 0 ? UNIT_STATE_PRECEDENCE.length : i;
};

/** The worst state among those a node holds (the matrix's precedence), or null when it holds none. */
export function worstOf(states: string[]): string | null {
  return [...states].sort((a, b) => rank(a) - rank(b))[0] ?? null;
}

/** States in precedence order, worst first: the order of every legend. */
export const byPrecedence = (states: Iterable<string>) => [...new Set(states)].sort((a, b) => rank(a) - rank(b));

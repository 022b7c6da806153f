import type { KeyboardEvent } from "react";

const STEP: Record<string, number> = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

/**
 * Where an arrow key, Home or End moves within a group of `count` items that is one Tab stop
 * (a toolbar, a radio group — WAI-ARIA's roving tabindex), wrapping at the ends; null for any
 * other key.
 */
export function rovingTarget(key: string, current: number, count: number): number | null {
  if (count === 0) return null;
  if (key === "Home") return 0;
  if (key === "End") return count - 1;
  const step = STEP[key];
  return step === undefined ? null : (current + step + count) % count;
}

/** Moves the focus to the group's item `target` (its siblings in the group are `selector`). */
export function focusSibling(e: KeyboardEvent<HTMLElement>, selector: string, target: number): void {
  e.preventDefault();
  const group = e.currentTarget.closest("[role=group], [role=toolbar], [role=radiogroup]");
  group?.querySelectorAll<HTMLElement>(selector)[target]?.focus();
}

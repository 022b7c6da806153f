"use client";

import { createContext } from "react";

/** Collapsing a pipeline, reached through context so the 10,000 flow elements never depend on the callback. */
export const GroupToggleContext = createContext<(pipeline: string) => void>(() => {});

"use client";

import { useReactFlow, useStoreApi } from "@xyflow/react";
import { useEffect, useRef } from "react";
import { frameOn, type Placed } from "./framing";

/**
 * Moves the camera to what matters (framing.ts): when the lineage is first drawn and whenever the
 * focus changes — a new selection's closure (seed first, then by depth) or, with nothing selected,
 * the current failures — at a zoom where names are legible; the view bar says what is left outside.
 * Collapsing a pipeline keeps the camera where it is; going from the whole lineage to the closure
 * laid out alone (`picture`), or back, frames the picture it goes to. The camera moves after the frame that paints
 * the highlight, so the closure lights up first; the first framing is instant.
 */
export function FrameView({ placed, focus, picture }: { placed: Placed[] | null; focus: string[] | null; picture: "lineage" | "closure" }) {
  const flow = useReactFlow();
  const store = useStoreApi();
  const latest = useRef<Placed[] | null>(null);
  const framedOnce = useRef(false);
  useEffect(() => {
    latest.current = placed;
  }, [placed]);
  const ready = placed !== null;
  useEffect(() => {
    if (!ready || focus === null) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let frame = 0;
    const attempt = (tries: number) => {
      frame = requestAnimationFrame(() => {
        timer = setTimeout(() => {
          const { width, height } = store.getState();
          // The canvas is measured by React Flow's resize observer: until then, wait a frame.
          if ((!width || !height) && tries > 0) return attempt(tries - 1);
          const framing = latest.current && frameOn(latest.current, focus, width, height);
          if (!framing) return;
          void flow.setViewport(framing.viewport, { duration: framedOnce.current ? 250 : 0 });
          framedOnce.current = true;
        }, 0);
      });
    };
    attempt(20);
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [ready, focus, picture, flow, store]);
  return null;
}

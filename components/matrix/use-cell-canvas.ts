"use client";

import { useLayoutEffect, useRef, type RefObject } from "react";
import { buildPalette, paintCells, type PaintInput, type Palette } from "./paint-cells";

type Picture = Omit<PaintInput, "left" | "top" | "width" | "height">;

/**
 * Cells drawn on one canvas the size of the scroller's cell area (it sits sticky in the corner
 * under the headers), repainted on every scroll event and whenever the picture changes: a few
 * thousand fillRects per frame instead of a few thousand DOM nodes.
 */
export function useCellCanvas(
  scroller: RefObject<HTMLDivElement | null>,
  canvas: RefObject<HTMLCanvasElement | null>,
  picture: Picture,
  offset: { x: number; y: number },
  content: { width: number; height: number },
) {
  const latest = useRef({ picture, offset, content });
  const palette = useRef<Palette | null>(null);
  const paint = useRef<() => void>(() => {});

  useLayoutEffect(() => {
    const el = scroller.current;
    const cv = canvas.current;
    const ctx = cv?.getContext("2d");
    if (!el || !cv || !ctx) return;
    palette.current ??= buildPalette();
    let size = { w: 0, h: 0, dpr: 0 };
    paint.current = () => {
      const { picture: p, offset: o, content: c } = latest.current;
      const w = Math.max(0, Math.min(el.clientWidth, c.width) - o.x);
      const h = Math.max(0, Math.min(el.clientHeight, c.height) - o.y);
      const dpr = window.devicePixelRatio || 1;
      if (w !== size.w || h !== size.h || dpr !== size.dpr) {
        size = { w, h, dpr };
        cv.width = Math.round(w * dpr);
        cv.height = Math.round(h * dpr);
        cv.style.width = `${w}px`;
        cv.style.height = `${h}px`;
      }
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      paintCells(ctx, palette.current!, { ...p, left: el.scrollLeft, top: el.scrollTop, width: w, height: h });
    };
    const onScroll = () => paint.current();
    el.addEventListener("scroll", onScroll, { passive: true });
    const resize = new ResizeObserver(onScroll);
    resize.observe(el);
    return () => {
      el.removeEventListener("scroll", onScroll);
      resize.disconnect();
    };
  }, [scroller, canvas]);

  // A new picture (rows, filter, selection, open cell) or geometry: repaint now, before the browser paints.
  useLayoutEffect(() => {
    latest.current = { picture, offset, content };
    paint.current();
  });
}

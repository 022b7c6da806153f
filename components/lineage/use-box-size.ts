"use client";

import { useCallback, useRef, useState } from "react";

/**
 * The size of the element the returned ref is put on, kept up to date by a ResizeObserver; null
 * until it is measured.
 */
export function useBoxSize(): [{ width: number; height: number } | null, (element: HTMLElement | null) => void] {
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  const observer = useRef<ResizeObserver | null>(null);
  const ref = useCallback((element: HTMLElement | null) => {
    observer.current?.disconnect();
    observer.current = null;
    if (!element) return;
    // Measured now, so what depends on the size is asked for once, not first for no size.
    const { width, height } = element.getBoundingClientRect();
    setSize({ width, height });
    observer.current = new ResizeObserver(([entry]) => {
      const { width, height } = entry!.contentRect;
      setSize((s) => (s && s.width === width && s.height === height ? s : { width, height }));
    });
    observer.current.observe(element);
  }, []);
  return [size, ref];
}

import { useLayoutEffect, useState, type RefObject } from 'react';

/**
 * The width of the scrolling box around `ref` (`selector`, e.g. a table's scroll container), kept
 * up to date. Content of an expanded table row spans the table's full scroll width; on a phone
 * a chart there would run off screen, so it is sized to what can be seen instead.
 */
export function useVisibleWidth(
  ref: RefObject<HTMLElement | null>,
  selector: string,
): number | undefined {
  const [width, setWidth] = useState<number>();
  useLayoutEffect(() => {
    const box = ref.current?.closest(selector);
    if (!box) return;
    const measure = () => setWidth(box.clientWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    return () => observer.disconnect();
  }, [ref, selector]);
  return width;
}

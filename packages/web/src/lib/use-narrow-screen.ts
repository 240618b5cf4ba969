import { useEffect, useState } from 'react';

/** Below this width tables show their rows as cards (a phone held upright; antd's `md`). */
export const narrowScreenQuery = '(max-width: 767px)';

/** Whether the window is a phone's width, kept up to date; read at once (no first wide frame). */
export function useNarrowScreen(): boolean {
  const [narrow, setNarrow] = useState(() => window.matchMedia(narrowScreenQuery).matches);
  useEffect(() => {
    const media = window.matchMedia(narrowScreenQuery);
    const change = () => setNarrow(media.matches);
    change();
    media.addEventListener('change', change);
    return () => media.removeEventListener('change', change);
  }, []);
  return narrow;
}

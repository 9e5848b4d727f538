import { useCallback, useEffect, useState } from 'preact/hooks';
import { searchOf, viewOf, type ListView } from './list-view.ts';

/**
 * The list's view kept in the address: a change pushes a history entry (replaces it while
 * the member types a search), and back or forward reads the view back from the address.
 */
export function useListView(): [ListView, (view: ListView, options?: { replace?: boolean }) => void] {
  const [view, setView] = useState<ListView>(() => viewOf(location.search));
  useEffect(() => {
    const back = () => setView(viewOf(location.search));
    addEventListener('popstate', back);
    return () => removeEventListener('popstate', back);
  }, []);
  const change = useCallback((next: ListView, { replace = false } = {}) => {
    const url = `${location.pathname}${searchOf(next)}`;
    if (url !== `${location.pathname}${location.search}`) {
      if (replace) history.replaceState(null, '', url);
      else history.pushState(null, '', url);
    }
    setView(next);
  }, []);
  return [view, change];
}

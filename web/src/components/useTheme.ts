/** The theme in effect (data-theme on <html>, written by the app), so canvases redraw when it changes. */
import { useSyncExternalStore } from 'react';
import type { ThemeName } from './colors';

function subscribe(onChange: () => void): () => void {
  const mo = new MutationObserver(onChange);
  mo.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  return () => mo.disconnect();
}
const current = (): ThemeName => (document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light');

export function useThemeName(): ThemeName {
  return useSyncExternalStore(subscribe, current, () => 'light');
}

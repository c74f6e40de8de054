/**
 * Light or dark: the setting (Light / Dark / System, kept in localStorage) and the system's
 * preference make the theme, written as data-theme on <html> for the CSS and for the canvases
 * (components/useTheme reads it back).
 */
import { useCallback, useEffect, useState } from 'react';

export type ThemeSetting = 'light' | 'dark' | 'system';
export const THEME_KEY = 'jfrscope:theme';
const query = () => (typeof window.matchMedia === 'function' ? window.matchMedia('(prefers-color-scheme: dark)') : null);

export function readSetting(): ThemeSetting {
  try {
    const v = localStorage.getItem(THEME_KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

/** Writes the theme the setting gives now onto <html>. */
export function applyTheme(setting: ThemeSetting): void {
  const dark = setting === 'dark' || (setting === 'system' && !!query()?.matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}

/** The setting and its setter; follows the system's preference while the setting is System. */
export function useThemeSetting(): [ThemeSetting, (s: ThemeSetting) => void] {
  const [setting, setSetting] = useState<ThemeSetting>(readSetting);
  useEffect(() => {
    applyTheme(setting);
    const mq = query();
    if (!mq || setting !== 'system') return;
    const onChange = () => applyTheme('system');
    mq.addEventListener('change', onChange);
    return () => mq.removeEventListener('change', onChange);
  }, [setting]);
  const set = useCallback((s: ThemeSetting) => {
    try {
      if (s === 'system') localStorage.removeItem(THEME_KEY);
      else localStorage.setItem(THEME_KEY, s);
    } catch {
      // storage refused (private mode): the choice lasts for this page only
    }
    setSetting(s);
  }, []);
  return [setting, set];
}

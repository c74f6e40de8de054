import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { applyTheme, readSetting } from './app/theme';
import './styles.css';

// The theme before the first paint, so a dark page does not flash white.
applyTheme(readSetting());

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

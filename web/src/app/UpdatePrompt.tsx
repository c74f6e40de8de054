/** Registers the service worker (offline use) and offers a reload when a new version is ready. */
import { useEffect, useState } from 'react';
import { registerSW } from 'virtual:pwa-register';

export function UpdatePrompt() {
  const [update, setUpdate] = useState<((reload?: boolean) => Promise<void>) | null>(null);
  useEffect(() => {
    if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
    const doUpdate = registerSW({
      onNeedRefresh: () => setUpdate(() => doUpdate),
    });
  }, []);
  if (!update) return null;
  return (
    <div className="notice" role="alertdialog" aria-label="Update available">
      A new version of jfrscope is available.
      <button type="button" onClick={() => void update(true)}>
        Reload
      </button>
      <button type="button" onClick={() => setUpdate(null)}>
        Later
      </button>
    </div>
  );
}

/**
 * Drop files or folders anywhere on the page: whether something is being dragged over it, and
 * the files when dropped. A folder (a JVM's JFR repository) is walked for every file inside it,
 * each named by its path in the folder.
 */
import { useEffect, useState } from 'react';

/** Every file under a dropped entry (directories read a batch at a time until empty). */
async function filesUnder(entry: FileSystemEntry): Promise<File[]> {
  if (entry.isFile) {
    const file = await new Promise<File>((res, rej) => (entry as FileSystemFileEntry).file(res, rej));
    const path = entry.fullPath.replace(/^\//, '');
    // A File over the same bytes (Chromium does not copy them), named by its path in the folder.
    return [path && path !== file.name ? new File([file], path, { type: file.type, lastModified: file.lastModified }) : file];
  }
  if (!entry.isDirectory) return [];
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  const out: File[] = [];
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((res, rej) => reader.readEntries(res, rej));
    if (batch.length === 0) break;
    for (const e of batch) if (!e.name.startsWith('.')) out.push(...(await filesUnder(e)));
  }
  return out;
}

export function useDropTarget(onFiles: (f: File[]) => void, onError: (message: string) => void): boolean {
  const [dragOver, setDragOver] = useState(false);
  useEffect(() => {
    const over = (e: DragEvent) => {
      e.preventDefault();
      setDragOver(true);
    };
    const leave = (e: DragEvent) => {
      if (e.relatedTarget === null) setDragOver(false);
    };
    const drop = (e: DragEvent) => {
      e.preventDefault();
      setDragOver(false);
      const dt = e.dataTransfer;
      if (!dt) return;
      // Entries must be taken while the drop event runs; they are read afterwards.
      const entries = [...dt.items].filter((i) => i.kind === 'file').map((i) => i.webkitGetAsEntry?.() ?? null);
      const files = [...dt.files];
      if (!entries.some((x) => x?.isDirectory)) {
        if (files.length) onFiles(files);
        return;
      }
      Promise.all(entries.map((x) => (x ? filesUnder(x) : Promise.resolve([]))))
        .then((lists) => {
          const all = lists.flat();
          if (all.length) onFiles(all);
          else onError('The folder dropped holds no files.');
        })
        .catch((err: unknown) => onError(`The folder dropped could not be read: ${err instanceof Error ? err.message : String(err)}`));
    };
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, [onFiles, onError]);
  return dragOver;
}

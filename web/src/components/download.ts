/** Saving what the page made (a blob: URL and a download link); nothing leaves the machine. */

export function download(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** "recording.jdk.GarbageCollection" from "recording.jfr.gz" and a type (a file name's characters only). */
export function exportName(fileName: string, what: string): string {
  const base = fileName.replace(/\.jfr(\.gz)?$/, '') || 'recording';
  // eslint-disable-next-line no-control-regex -- control characters are what is replaced
  return `${base}.${what}`.replace(/[\\/:*?"<>|\u0000-\u001f\u007f]/g, '_');
}

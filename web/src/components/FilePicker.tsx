/** A button that opens the system's file chooser for a recording (.jfr or .jfr.gz). */
export function FilePicker({ label, onFile, primary = false }: { label: string; onFile: (f: File) => void; primary?: boolean }) {
  return (
    <label className={primary ? 'button primary' : 'button'}>
      {label}
      <input
        type="file"
        aria-label={label}
        accept=".jfr,.gz,application/octet-stream"
        onChange={(e) => {
          const f = e.currentTarget.files?.[0];
          if (f) onFile(f);
          e.currentTarget.value = '';
        }}
      />
    </label>
  );
}

/**
 * A button that opens the system's file chooser for a recording (.jfr or .jfr.gz): one file, or
 * (`multiple`) several chunk files read as one recording, or (`folder`) a whole folder such as a
 * JVM's JFR repository.
 */
export function FilePicker({
  label,
  onFiles,
  primary = false,
  multiple = false,
  folder = false,
}: {
  label: string;
  onFiles: (files: File[]) => void;
  primary?: boolean;
  multiple?: boolean;
  folder?: boolean;
}) {
  // React passes unknown attributes through as written; webkitdirectory is the one every
  // browser knows for choosing a folder.
  const folderProps = folder ? ({ webkitdirectory: '', directory: '' } as Record<string, string>) : {};
  return (
    <label className={primary ? 'button primary' : 'button'}>
      {label}
      <input
        type="file"
        aria-label={label}
        accept={folder ? undefined : '.jfr,.gz,application/octet-stream'}
        multiple={multiple || folder}
        {...folderProps}
        onChange={(e) => {
          const files = [...(e.currentTarget.files ?? [])];
          if (files.length) onFiles(files);
          e.currentTarget.value = '';
        }}
      />
    </label>
  );
}

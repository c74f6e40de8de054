/**
 * parquet-wasm, started once: in the page from its .wasm file served by our own origin, in Node
 * from bytes handed to `startParquetWriter` (tests). Dictionary strings stay dictionary-encoded in
 * the Parquet file; "none" (-1 in the page's columns) is null.
 */
import { tableToIPC, type Table } from 'apache-arrow';
import init, { Compression, Table as WasmTable, WriterPropertiesBuilder, initSync, writeParquet } from 'parquet-wasm/esm';

let started: Promise<unknown> | null = null;

/** Start the writer from the module's bytes (Node), instead of fetching its file. */
export function startParquetWriter(wasm: BufferSource): void {
  initSync({ module: wasm });
  started = Promise.resolve();
}

async function start(): Promise<void> {
  started ??= import('parquet-wasm/esm/parquet_wasm_bg.wasm?url').then((m: { default: string }) => init({ module_or_path: m.default }));
  await started;
}

export async function writeParquetFile(table: Table): Promise<Uint8Array> {
  await start();
  const input = WasmTable.fromIPCStream(tableToIPC(table, 'stream'));
  const props = new WriterPropertiesBuilder().setCompression(Compression.SNAPPY).setCreatedBy('jfrscope').build();
  // writeParquet takes ownership of (and frees) both.
  return writeParquet(input, props);
}

/**
 * An Arrow table as a Parquet file, for "export as Parquet". The Parquet writer (parquet-wasm,
 * the Rust `parquet` crate compiled to WebAssembly) is loaded on first use, so the page's first
 * load does not carry it.
 *
 *   Arrow Table ─ tableToIPC ─▶ parquet-wasm Table.fromIPCStream ─ writeParquet (snappy) ─▶ bytes
 *
 * Not DuckDB's `COPY … TO (FORMAT parquet)`: DuckDB-WASM keeps its Parquet writer in an extension
 * it downloads from extensions.duckdb.org at run time, which the page's policy (connect-src
 * 'self') forbids and which would not work offline.
 */
import type { Table } from 'apache-arrow';

export async function tableToParquet(table: Table): Promise<Uint8Array> {
  const { writeParquetFile } = await import('./parquet-writer');
  return writeParquetFile(table);
}

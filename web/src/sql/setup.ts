/**
 * Settings every DuckDB the page opens starts with. DuckDB-WASM would fetch an extension it lacks
 * (json, parquet, icu…) from extensions.duckdb.org on first use; the page's policy forbids that
 * and it would not work offline, so a query needing one fails at once with DuckDB's message naming
 * the extension. No query reads or writes files or URLs either (enable_external_access): the
recording's tables are all it sees. `fields` holds the per-type tables of every field, loaded on demand.
 */
export const SETUP_SQL = `
  SET autoinstall_known_extensions = false;
  SET autoload_known_extensions = false;
  SET enable_external_access = false;
  CREATE SCHEMA IF NOT EXISTS fields;
`;

/**
 * tableToParquet (parquet-wasm, the page's writer) read back by an independent Parquet reader
 * (hyparquet, plain JavaScript): every row and column of the events, frames, threads and stacks
 * tables of a fixture comes back equal to the Arrow table that went in.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Table } from 'apache-arrow';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '../../columns/profile';
import { decodeInNode } from '../../engine/node';
import { tableToParquet } from '../parquet';
import { startParquetWriter } from '../parquet-writer';

const root = resolve(__dirname, '../../../..');

let profile: Profile;
beforeAll(() => {
  startParquetWriter(readFileSync(resolve(root, 'node_modules/parquet-wasm/esm/parquet_wasm_bg.wasm')));
  profile = decodeInNode(readFileSync(resolve(root, 'fixtures/ap-alloc-lock.jfr')));
});

/** A cell as Parquet gives it back: NaN and null both mean "none" in the page's columns. */
function same(a: unknown, b: unknown): boolean {
  if (typeof a === 'bigint') a = Number(a);
  if (typeof b === 'bigint') b = Number(b);
  if (typeof a === 'number' && typeof b === 'number') return Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b));
  return a === b;
}

async function roundTrip(table: Table) {
  const bytes = await tableToParquet(table);
  // "PAR1" at both ends: a whole Parquet file.
  expect(String.fromCharCode(...bytes.subarray(0, 4))).toBe('PAR1');
  expect(String.fromCharCode(...bytes.subarray(bytes.length - 4))).toBe('PAR1');
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const meta = parquetMetadata(file);
  const rows = (await parquetReadObjects({ file })) as Record<string, unknown>[];
  return { meta, rows };
}

describe('tableToParquet', () => {
  for (const name of ['events', 'frames', 'threads', 'stacks'] as const) {
    it(`writes the ${name} table row for row`, async () => {
      const table = profile.arrow[name];
      expect(table.numRows).toBeGreaterThan(0);
      const { meta, rows } = await roundTrip(table);
      expect(Number(meta.num_rows)).toBe(table.numRows);
      expect(rows.length).toBe(table.numRows);
      const names = table.schema.fields.map((f) => f.name);
      expect(Object.keys(rows[0]).sort()).toEqual([...names].sort());
      let mismatches = 0;
      for (const col of names) {
        const v = table.getChild(col)!;
        for (let i = 0; i < table.numRows; i++) {
          const want = v.get(i);
          const got = rows[i][col];
          if (!same(want ?? null, got ?? null)) {
            if (mismatches++ < 5) expect.soft(got, `${name}.${col}[${i}]`).toEqual(want);
          }
        }
      }
      expect(mismatches).toBe(0);
    });
  }

  it('keeps strings (dictionary-encoded in Arrow) as text, with nulls where the page has -1', async () => {
    const { rows } = await roundTrip(profile.arrow.events);
    const e = profile.events;
    const i = e.subject.findIndex((s) => s >= 0);
    expect(i).toBeGreaterThanOrEqual(0);
    expect(rows[i].subject).toBe(profile.strings[e.subject[i]]);
    const j = e.subject.findIndex((s) => s < 0);
    expect(rows[j].subject).toBeNull();
  });

  it('can be called again and gives the same file', async () => {
    const a = await tableToParquet(profile.arrow.threads);
    const b = await tableToParquet(profile.arrow.threads);
    expect(b).toEqual(a);
  });
});

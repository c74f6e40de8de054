import { describe, expect, it } from 'vitest';
import { splitStatements } from '../statements';

describe('splitStatements', () => {
  it('cuts at semicolons outside quotes and comments', () => {
    expect(splitStatements("SELECT 'a;b' AS s; -- c;d\nSELECT \"x;y\" FROM t /* ; */ ;")).toEqual([
      "SELECT 'a;b' AS s",
      '-- c;d\nSELECT "x;y" FROM t /* ; */',
    ]);
  });
  it('keeps doubled quotes and dollar-quoted text whole', () => {
    expect(splitStatements("SELECT 'it''s; fine'; SELECT $$a;b$$, $q$c;d$q$")).toEqual(["SELECT 'it''s; fine'", 'SELECT $$a;b$$, $q$c;d$q$']);
  });
  it('drops empty pieces and comment-only pieces', () => {
    expect(splitStatements(';;  ; -- only a comment\n')).toEqual([]);
    expect(splitStatements('SELECT 1')).toEqual(['SELECT 1']);
  });
  it('keeps an unterminated quote or comment in its statement (DuckDB names the error)', () => {
    expect(splitStatements("SELECT 'open; SELECT 2")).toEqual(["SELECT 'open; SELECT 2"]);
    expect(splitStatements('SELECT 1 /* open; SELECT 2')).toEqual(['SELECT 1 /* open; SELECT 2']);
  });
});

/**
 * SQL text cut into statements at the semicolons outside quotes and comments, because DuckDB's
 * pending queries (the cancellable kind) take one statement at a time.
 *
 *   SELECT 'a;b' AS s; -- c;d
 *   SELECT "x;y" FROM t /* ; *\/ ;    →   ["SELECT 'a;b' AS s", "-- c;d\nSELECT \"x;y\" FROM t /* ; *\/"]
 *
 * Quotes: '…' and "…" (doubled to escape), $$…$$ and $tag$…$tag$; comments: -- to the line's end
 * and /* … *\/. Pieces holding only blanks and comments are dropped.
 */
export function splitStatements(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  let i = 0;
  let meaningful = false;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (c === "'" || c === '"') {
      meaningful = true;
      i++;
      while (i < n) {
        if (text[i] === c) {
          if (text[i + 1] === c) i += 2;
          else break;
        } else i++;
      }
      i++;
    } else if (c === '-' && text[i + 1] === '-') {
      while (i < n && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
    } else if (c === '$' && /^\$[A-Za-z_]*\$/.test(text.slice(i, i + 64))) {
      const tag = /^\$[A-Za-z_]*\$/.exec(text.slice(i, i + 64))![0];
      meaningful = true;
      const end = text.indexOf(tag, i + tag.length);
      i = end < 0 ? n : end + tag.length;
    } else if (c === ';') {
      if (meaningful) out.push(text.slice(start, i).trim());
      start = i + 1;
      meaningful = false;
      i++;
    } else {
      if (!/\s/.test(c)) meaningful = true;
      i++;
    }
  }
  if (meaningful) out.push(text.slice(start).trim());
  return out;
}

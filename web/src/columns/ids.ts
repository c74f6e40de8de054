/**
 * Ids for tuples of small integers, numbered 0, 1, 2… in the order they are first seen: the
 * merge's dictionary of frames (name, class, line, bytecode index, kind → frame row). (Its
 * stacks and call nodes are trees, numbered by PrefixTree and CallNodeBuilder below.)
 *
 *   slots (open addressing, linear probing, power-of-two size, at most half full)
 *     slot ─ id + 1 (0: empty) ─ keys[id * width …] compared with the tuple
 *
 * Millions of stacks in a JS Map of Maps cost seconds and a garbage collector's worth of
 * objects; here they are three typed arrays.
 */
export class TupleIds {
  /** Tuples seen. */
  size = 0;
  private slots: Int32Array;
  private keys: Int32Array;

  constructor(
    readonly width: 2 | 5,
    expected = 0,
  ) {
    let cap = 1024;
    while (cap < 2 * expected) cap *= 2;
    this.slots = new Int32Array(cap);
    this.keys = new Int32Array(Math.max(16, expected) * width);
  }

  private static hash(a: number, b: number, c: number, d: number, e: number): number {
    let h = Math.imul(a, 0x9e3779b1) ^ b;
    h = Math.imul(h ^ (h >>> 15), 0x85ebca6b) ^ c;
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) ^ d;
    h = Math.imul(h ^ (h >>> 16), 0x27d4eb2f) ^ e;
    h = Math.imul(h ^ (h >>> 15), 0x165667b1);
    return h ^ (h >>> 16);
  }

  /** The id of the tuple (a, b[, c, d, e]), the next id when it is new (then `size` grows). */
  id(a: number, b: number, c = 0, d = 0, e = 0): number {
    const w = this.width;
    const mask = this.slots.length - 1;
    let s = TupleIds.hash(a, b, c, d, e) & mask;
    const keys = this.keys;
    for (;;) {
      const v = this.slots[s];
      if (v === 0) break;
      const k = (v - 1) * w;
      if (keys[k] === a && keys[k + 1] === b && (w === 2 || (keys[k + 2] === c && keys[k + 3] === d && keys[k + 4] === e))) return v - 1;
      s = (s + 1) & mask;
    }
    const id = this.size++;
    if ((id + 1) * w > this.keys.length) {
      const more = new Int32Array(this.keys.length * 2);
      more.set(this.keys);
      this.keys = more;
    }
    const k = id * w;
    this.keys[k] = a;
    this.keys[k + 1] = b;
    if (w === 5) {
      this.keys[k + 2] = c;
      this.keys[k + 3] = d;
      this.keys[k + 4] = e;
    }
    this.slots[s] = id + 1;
    if (2 * this.size > this.slots.length) this.grow();
    return id;
  }

  /** Field `j` of tuple `id`. */
  field(id: number, j: number): number {
    return this.keys[id * this.width + j];
  }

  /** Field `j` of every tuple, by id. */
  column(j: number): Int32Array {
    const out = new Int32Array(this.size);
    const w = this.width;
    for (let id = 0; id < this.size; id++) out[id] = this.keys[id * w + j];
    return out;
  }

  private grow(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    const w = this.width;
    const keys = this.keys;
    for (let id = 0; id < this.size; id++) {
      const k = id * w;
      let s = TupleIds.hash(keys[k], keys[k + 1], w === 5 ? keys[k + 2] : 0, w === 5 ? keys[k + 3] : 0, w === 5 ? keys[k + 4] : 0) & mask;
      while (slots[s] !== 0) s = (s + 1) & mask;
      slots[s] = id + 1;
    }
    this.slots = slots;
  }
}

/**
 * The merged stack prefix tree: rows numbered 0, 1, 2… in the order (prefix, frame) pairs are
 * first seen, as TupleIds(2) would number them, kept as the two columns a profile's stack table
 * is. A decoder sends a path's rows together, so most rows are made right after their prefix,
 * and found there again; a row is looked up in a hash only where it can be elsewhere (as the
 * call nodes are, CallNodeBuilder):
 *
 *   prefix the newest row      no child yet: a new row, nothing looked up
 *   else row prefix + 1        the child made right after its prefix (a path's next row)
 *   else a hash of rows        every other row, keyed by the row's own columns
 *
 * A hash of every row made each step of a merge of millions of rows a cache miss. Lists of
 * children (first child and next sibling beside each row's frame and prefix, and a count of
 * children) wrote twice the memory per row, which is most of a merge's cost, and the columns
 * were copied out of them: merging the 19.5 M rows of a deep-stack pick (fixtures/large/
 * mixed.jfr) here takes 40% less time, and the columns are given out as they are.
 */
export class PrefixTree {
  /** Rows. */
  size = 0;
  private frame: Int32Array;
  private prefix: Int32Array;
  /** The rows not made right after their prefix. */
  private readonly hashed = new RowHash();

  constructor(expected = 0) {
    const cap = Math.max(1024, expected);
    this.frame = new Int32Array(cap);
    this.prefix = new Int32Array(cap);
  }

  /** The row of `frame` under `prefix` (-1: at the root), the next row when it is new. */
  id(prefix: number, frame: number): number {
    const next = prefix + 1;
    if (next >= 0 && next < this.size && this.prefix[next] === prefix && this.frame[next] === frame) return next;
    return this.hashedId(prefix, frame);
  }

  /**
   * The rows of a decoder's stack table, in order (each row after its prefix): row i is frame
   * `frames[frame[i]]` under row `map[prefix[i]]` of this tree (a negative prefix as it is: -1
   * at the root), and its row here is written to `map[at + i]`. As `id` row by row, with the
   * first two cases inline. Neither waits on memory an earlier row's lookup reads (the prefix
   * is most often the row before, kept rather than read back from `map`), so the steps of
   * several rows overlap: a path merged again reads rows made long ago, seldom in the cache.
   */
  addTable(prefix: Int32Array, frame: Uint32Array, frames: Int32Array, map: Int32Array, at: number): void {
    const n = prefix.length;
    // Room for every row to be new, made once, so that the columns stay as they are.
    if (this.size + n > this.frame.length) this.grow(this.size + n);
    const rowFrame = this.frame;
    const rowPrefix = this.prefix;
    let size = this.size;
    // The row here of the row before.
    let last = at > 0 ? map[at - 1] : -1;
    for (let i = 0; i < n; i++) {
      const q = prefix[i];
      const f = frames[frame[i]];
      const p = q === at + i - 1 ? last : q < 0 ? q : map[q];
      let row: number;
      if (p === size - 1) {
        row = size++;
        rowFrame[row] = f;
        rowPrefix[row] = p;
      } else if (p >= -1 && rowPrefix[p + 1] === p && rowFrame[p + 1] === f) {
        row = p + 1;
      } else {
        this.size = size;
        row = this.hashedId(p, f);
        size = this.size;
      }
      map[at + i] = last = row;
    }
    this.size = size;
  }

  /** The row of (prefix, frame) that is not row prefix + 1, the next row when it is new. */
  private hashedId(prefix: number, frame: number): number {
    const found = this.hashed.find(prefix, frame, this.prefix, this.frame);
    if (found >= 0) return found;
    const row = this.size++;
    if (row === this.frame.length) this.grow(row + 1);
    this.frame[row] = frame;
    this.prefix[row] = prefix;
    if (row !== prefix + 1) this.hashed.add(row, this.prefix, this.frame);
    return row;
  }

  /** Room for `need` rows. */
  private grow(need: number): void {
    const cap = roomFor(this.frame.length, need);
    // (Only the rows made are copied: the room past them is left untouched.)
    const frame = new Int32Array(cap);
    frame.set(this.frame.subarray(0, this.size));
    this.frame = frame;
    const prefix = new Int32Array(cap);
    prefix.set(this.prefix.subarray(0, this.size));
    this.prefix = prefix;
  }

  /**
   * Each row's frame, and its prefix (-1 at the root): views of the tree's own columns, which
   * later rows only write past (so columns given out stay as they were).
   */
  columns(): { frame: Int32Array; prefix: Int32Array } {
    return { frame: this.frame.subarray(0, this.size), prefix: this.prefix.subarray(0, this.size) };
  }
}

/** The call-node table's columns (profile-logic/callnodes.ts): the stack rows merged by name. */
export interface CallNodeColumns {
  /** The caller's node, -1 at a root; always lower than the node. */
  prefix: Int32Array;
  /** String index of the method name (the frames' name). */
  name: Int32Array;
  /** The frame kind of the first frame merged into the node. */
  kind: Uint8Array;
  /** Distance from the root (0 at a root). */
  depth: Int32Array;
  maxDepth: number;
  /** Per stack row, its node. */
  ofStack: Int32Array;
  length: number;
}

/**
 * Call nodes made stack row by stack row, in row order: each row's node is (its prefix's node,
 * its frame's name), numbered as first reached. A table of deep, varied stacks is mostly chains
 * (a row's prefix the row just before it), so nearly every row makes a node, and a callee is
 * looked up only where one can exist:
 *
 *   caller the newest node          no callee yet: a new node, nothing looked up
 *   else node caller + 1            the callee made right after its caller (a chain's next)
 *   else a hash of (caller, name)   every other callee, keyed by the node's own columns
 *
 * Callees are made after their caller, so the newest node has none; a callee made right after
 * its caller is node caller + 1 and is not hashed (at most one per caller). The merge makes the
 * nodes as it adds stack rows (while the decoders are still at work), and keeps making them
 * round after round as its stack table grows; a table made another way is walked once.
 */
export class CallNodeBuilder {
  /** Stack rows added. */
  rows = 0;
  /** Nodes made. */
  length = 0;
  maxDepth = 0;
  private ofStack: Int32Array;
  private prefix: Int32Array;
  private name: Int32Array;
  private kind: Uint8Array;
  private depth: Int32Array;
  /** The nodes not made right after their caller. */
  private readonly hashed: RowHash;

  /** `expected`: stack rows, when known (the columns are made that long: a node per row at most). */
  constructor(expected = 0) {
    const cap = Math.max(1024, expected);
    this.ofStack = new Int32Array(cap);
    this.prefix = new Int32Array(cap);
    this.name = new Int32Array(cap);
    this.kind = new Uint8Array(cap);
    this.depth = new Int32Array(cap);
    // Room for a callee off the chains per 32 rows before it grows (deep, varied stacks have
    // about one per 60), 16 MB at most.
    this.hashed = new RowHash(1 << Math.min(22, 32 - Math.clz32(expected >> 4)));
  }

  /**
   * The node of the next stack row, whose prefix is stack row `prefix` (-1, or a row not added
   * before it, at a root) and whose frame is named `name` (kind `kind`).
   */
  add(prefix: number, name: number, kind: number): number {
    const s = this.rows;
    if (s === this.ofStack.length) this.grow(s + 1);
    const node = this.node(prefix >= 0 && prefix < s ? this.ofStack[prefix] : -1, name, kind);
    this.ofStack[s] = node;
    this.rows = s + 1;
    return node;
  }

  /**
   * The nodes of `tree`'s rows not added yet (from row `rows` on), in order; frame f is named
   * by field `name` of tuple f of `frames`, of the kind field `kind` holds. As `add` row by
   * row, with its first case inline (the caller the newest node); a row's prefix is most often
   * the row before, whose node is kept rather than read back from `ofStack`.
   */
  addTree(tree: PrefixTree, frames: TupleIds, name: number, kind: number): void {
    const from = this.rows;
    const to = tree.size;
    if (to > this.ofStack.length) this.grow(to);
    const { ofStack, prefix: callers, name: names, kind: kinds, depth } = this;
    const { frame, prefix } = tree.columns();
    let n = this.length;
    let node = from > 0 ? ofStack[from - 1] : -1;
    for (let s = from; s < to; s++) {
      const p = prefix[s];
      const f = frame[s];
      const parent = p === s - 1 ? node : p >= 0 ? ofStack[p] : -1;
      if (parent === n - 1) {
        // (As `node` makes a callee of the newest node.)
        node = n++;
        callers[node] = parent;
        names[node] = frames.field(f, name);
        kinds[node] = frames.field(f, kind);
        const d = parent >= 0 ? depth[parent] + 1 : 0;
        depth[node] = d;
        if (d > this.maxDepth) this.maxDepth = d;
      } else {
        this.length = n;
        node = this.node(parent, frames.field(f, name), frames.field(f, kind));
        n = this.length;
      }
      ofStack[s] = node;
    }
    this.length = n;
    this.rows = to;
  }

  /** The node called by node `parent` (-1: a root) named `name`, made (of kind `kind`) when new. */
  private node(parent: number, name: number, kind: number): number {
    const n = this.length;
    if (parent !== n - 1) {
      const next = parent + 1;
      if (this.prefix[next] === parent && this.name[next] === name) return next;
      const found = this.hashed.find(parent, name, this.prefix, this.name);
      if (found >= 0) return found;
    }
    const node = this.length++;
    this.prefix[node] = parent;
    this.name[node] = name;
    this.kind[node] = kind;
    const d = parent >= 0 ? this.depth[parent] + 1 : 0;
    this.depth[node] = d;
    if (d > this.maxDepth) this.maxDepth = d;
    if (node !== parent + 1) this.hashed.add(node, this.prefix, this.name);
    return node;
  }

  /**
   * The columns of the nodes made so far: views of the builder's own, which later rows only
   * write past (so a table given out stays as it was).
   */
  columns(): CallNodeColumns {
    const n = this.length;
    return {
      prefix: this.prefix.subarray(0, n),
      name: this.name.subarray(0, n),
      kind: this.kind.subarray(0, n),
      depth: this.depth.subarray(0, n),
      maxDepth: this.maxDepth,
      ofStack: this.ofStack.subarray(0, this.rows),
      length: n,
    };
  }

  /** Room for `need` rows. */
  private grow(need: number): void {
    const cap = roomFor(this.ofStack.length, need);
    // (Only the rows and nodes made are copied: the room past them is left untouched.)
    const more = <A extends Int32Array | Uint8Array>(a: A, used: number): A => {
      const b = new (a.constructor as new (n: number) => A)(cap);
      b.set(a.subarray(0, used));
      return b;
    };
    this.ofStack = more(this.ofStack, this.rows);
    this.prefix = more(this.prefix, this.length);
    this.name = more(this.name, this.length);
    this.kind = more(this.kind, this.length);
    this.depth = more(this.depth, this.length);
  }
}

/**
 * The room a column of `cap` entries grows to for `need`: four times the room up to 16 M, so a
 * merge of millions of rows copies a third as much as by doubling (and the room not used yet
 * costs no memory until it is written: fresh pages are mapped when first touched); past that,
 * twice (gigabytes of address space).
 */
export function roomFor(cap: number, need: number): number {
  while (cap < need) cap *= cap < 1 << 24 ? 4 : 2;
  return cap;
}

/**
 * The rows of a table (stack rows, call nodes) that are not found right after their prefix,
 * by (prefix, frame or name): open addressing, linear probing, row + 1 per slot (0 empty), at
 * most half full. It keeps no keys: a row's are read from the table's own columns `a` and `b`,
 * passed in (they are replaced as the table grows).
 */
class RowHash {
  private slots: Int32Array;
  private count = 0;

  constructor(size = 1024) {
    this.slots = new Int32Array(Math.max(1024, size));
  }

  /** The row whose `a` is `x` and `b` is `y`, -1 when none. */
  find(x: number, y: number, a: Int32Array, b: Int32Array): number {
    if (this.count === 0) return -1;
    const slots = this.slots;
    const mask = slots.length - 1;
    for (let h = hashOf(x, y) & mask; slots[h] !== 0; h = (h + 1) & mask) {
      const v = slots[h] - 1;
      if (a[v] === x && b[v] === y) return v;
    }
    return -1;
  }

  /** Add `row` (not in yet), keyed by `a[row]` and `b[row]`. */
  add(row: number, a: Int32Array, b: Int32Array): void {
    if (++this.count * 2 > this.slots.length) this.rehash(a, b);
    const slots = this.slots;
    const mask = slots.length - 1;
    let h = hashOf(a[row], b[row]) & mask;
    while (slots[h] !== 0) h = (h + 1) & mask;
    slots[h] = row + 1;
  }

  /** The same rows in twice the room. */
  private rehash(a: Int32Array, b: Int32Array): void {
    const slots = this.slots;
    const more = new Int32Array(slots.length * 2);
    const mask = more.length - 1;
    for (let k = 0; k < slots.length; k++) {
      const v = slots[k];
      if (v === 0) continue;
      let h = hashOf(a[v - 1], b[v - 1]) & mask;
      while (more[h] !== 0) h = (h + 1) & mask;
      more[h] = v;
    }
    this.slots = more;
  }
}

function hashOf(parent: number, name: number): number {
  return Math.imul(parent, 0x9e3779b1) ^ Math.imul(name, 0x85ebca6b);
}

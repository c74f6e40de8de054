/**
 * Ids for tuples of small integers, numbered 0, 1, 2… in the order they are first seen: the
 * merge's dictionary of stacks ((prefix, frame) → stack row) and of frames (name, class, line,
 * bytecode index, kind → frame row), and the call-node table's ((caller's node, name) → node).
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
 * first seen, as TupleIds(2) would number them, but found through each row's own list of
 * children (first child, next sibling), and through a TupleIds only for rows with more than
 * WIDE children. A decoder sends a path's rows together, so a row's prefix is most often the
 * row just before it: the lists keep each step of a merge in nearby memory, where a hash table
 * of millions of stacks made every step a cache miss. A row's four fields lie side by side
 * (frame, prefix, first child, next sibling), so a step reads one cache line, not four: 10–15%
 * faster over the 11–21 M rows a deep-stack pick merges.
 */
export class PrefixTree {
  /** Rows. */
  size = 0;
  /** Per row, at 4 × row: frame, prefix, first child (-1: none), next sibling (-1: none). */
  private rows: Int32Array;
  private kids: Uint8Array;
  private rootFirst = -1;
  private rootKids = 0;
  private readonly wide = new TupleIds(2);
  private readonly wideRows: number[] = [];
  private static readonly WIDE = 8;

  constructor(expected = 0) {
    const cap = Math.max(1024, expected);
    this.rows = new Int32Array(4 * cap);
    this.kids = new Uint8Array(cap);
  }

  /** The row of `frame` under `prefix` (-1: at the root), the next row when it is new. */
  id(prefix: number, frame: number): number {
    const inTree = prefix >= 0 && prefix < this.size;
    const kids = inTree ? this.kids[prefix] : prefix === -1 ? this.rootKids : 255;
    if (kids > PrefixTree.WIDE) {
      const w = this.wide.id(prefix, frame);
      if (w < this.wideRows.length) return this.wideRows[w];
      const row = this.add(prefix, frame, inTree);
      this.wideRows.push(row);
      return row;
    }
    const rows = this.rows;
    for (let c = inTree ? rows[4 * prefix + 2] : prefix === -1 ? this.rootFirst : -1; c >= 0; c = rows[4 * c + 3]) {
      if (rows[4 * c] === frame) return c;
    }
    const row = this.add(prefix, frame, inTree);
    if (kids + 1 > PrefixTree.WIDE) {
      // From now on this prefix's children are looked up by hash: every one of them so far.
      for (let c = row; c >= 0; c = this.rows[4 * c + 3]) {
        this.wide.id(prefix, this.rows[4 * c]);
        this.wideRows.push(c);
      }
    }
    return row;
  }

  private add(prefix: number, frame: number, inTree: boolean): number {
    const row = this.size++;
    if (row === this.kids.length) this.grow();
    const rows = this.rows;
    const k = 4 * row;
    rows[k] = frame;
    rows[k + 1] = prefix;
    rows[k + 2] = -1;
    this.kids[row] = 0;
    if (inTree) {
      rows[k + 3] = rows[4 * prefix + 2];
      rows[4 * prefix + 2] = row;
      if (this.kids[prefix] < 255) this.kids[prefix]++;
    } else if (prefix === -1) {
      rows[k + 3] = this.rootFirst;
      this.rootFirst = row;
      if (this.rootKids < 255) this.rootKids++;
    } else {
      rows[k + 3] = -1;
    }
    return row;
  }

  private grow(): void {
    // Four times the room up to 16 M rows: a merge of millions of rows copies a third as much
    // as by doubling, and the room not used yet costs no memory until it is written (fresh
    // pages are mapped when first touched); past that, twice (gigabytes of address space).
    const times = this.kids.length < 1 << 24 ? 4 : 2;
    const rows = new Int32Array(this.rows.length * times);
    rows.set(this.rows);
    this.rows = rows;
    const kids = new Uint8Array(this.kids.length * times);
    kids.set(this.kids);
    this.kids = kids;
  }

  /** Each row's frame, and its prefix (-1 at the root): one pass over the rows for both. */
  columns(): { frame: Int32Array; prefix: Int32Array } {
    const frame = new Int32Array(this.size);
    const prefix = new Int32Array(this.size);
    const rows = this.rows;
    for (let i = 0, k = 0; i < frame.length; i++, k += 4) {
      frame[i] = rows[k];
      prefix[i] = rows[k + 1];
    }
    return { frame, prefix };
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
  private slots: Int32Array;
  private hashed = 0;

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
    this.slots = new Int32Array(Math.max(1024, 1 << Math.min(22, 32 - Math.clz32(expected >> 4))));
  }

  /**
   * The node of the next stack row, whose prefix is stack row `prefix` (-1, or a row not added
   * before it, at a root) and whose frame is named `name` (kind `kind`).
   */
  add(prefix: number, name: number, kind: number): number {
    const s = this.rows;
    if (s === this.ofStack.length) this.grow();
    const parent = prefix >= 0 && prefix < s ? this.ofStack[prefix] : -1;
    const n = this.length;
    let node = -1;
    if (parent !== n - 1) {
      const next = parent + 1;
      if (this.prefix[next] === parent && this.name[next] === name) node = next;
      else if (this.hashed > 0) {
        const slots = this.slots;
        const mask = slots.length - 1;
        for (let h = hashOf(parent, name) & mask; ; h = (h + 1) & mask) {
          const v = slots[h] - 1;
          if (v < 0) break;
          if (this.prefix[v] === parent && this.name[v] === name) {
            node = v;
            break;
          }
        }
      }
    }
    if (node < 0) {
      node = this.length++;
      this.prefix[node] = parent;
      this.name[node] = name;
      this.kind[node] = kind;
      const d = parent >= 0 ? this.depth[parent] + 1 : 0;
      this.depth[node] = d;
      if (d > this.maxDepth) this.maxDepth = d;
      if (node !== parent + 1) {
        if (++this.hashed * 2 > this.slots.length) this.rehash();
        const slots = this.slots;
        const mask = slots.length - 1;
        let h = hashOf(parent, name) & mask;
        while (slots[h] !== 0) h = (h + 1) & mask;
        slots[h] = node + 1;
      }
    }
    this.ofStack[s] = node;
    this.rows = s + 1;
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

  private grow(): void {
    // As PrefixTree grows: four times the room up to 16 M rows, then twice.
    const cap = this.ofStack.length * (this.ofStack.length < 1 << 24 ? 4 : 2);
    const more = <A extends Int32Array | Uint8Array>(a: A): A => {
      const b = new (a.constructor as new (n: number) => A)(cap);
      b.set(a);
      return b;
    };
    this.ofStack = more(this.ofStack);
    this.prefix = more(this.prefix);
    this.name = more(this.name);
    this.kind = more(this.kind);
    this.depth = more(this.depth);
  }

  /** The hash of callees (node + 1 per slot, 0 empty) in twice the room. */
  private rehash(): void {
    const slots = this.slots;
    const more = new Int32Array(slots.length * 2);
    const mask = more.length - 1;
    for (let k = 0; k < slots.length; k++) {
      const v = slots[k];
      if (v === 0) continue;
      let h = hashOf(this.prefix[v - 1], this.name[v - 1]) & mask;
      while (more[h] !== 0) h = (h + 1) & mask;
      more[h] = v;
    }
    this.slots = more;
  }
}

function hashOf(parent: number, name: number): number {
  return Math.imul(parent, 0x9e3779b1) ^ Math.imul(name, 0x85ebca6b);
}

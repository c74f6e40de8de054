/**
 * Ids for tuples of small integers, numbered 0, 1, 2… in the order they are first seen: the
 * merge's dictionary of stacks ((prefix, frame) → stack row) and of frames (name, class, line,
 * bytecode index, kind → frame row).
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

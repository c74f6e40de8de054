/**
 * The call-node table: the stack table merged by frame name, once per profile, so a filter
 * keystroke never walks a stack again.
 *
 *   stack rows (one per distinct path of frames with lines; prefix < row)
 *     a:12 ─ b:40 ─ c:7          row 0 ─ row 1 ─ row 2
 *          └ b:41 ─ c:7                └ row 3 ─ row 4
 *   call nodes (one per distinct path of names; prefix < node)
 *     a ─ b ─ c                  node 0 ─ node 1 ─ node 2      ofStack = [0, 1, 2, 1, 2]
 *
 * A keystroke then costs one pass over the weights per stack row (self weight per node) and one
 * pass over the nodes in reverse order (totals: each node adds its total to its prefix's), all
 * typed arrays; objects are made only for the nodes a flame graph shows.
 */
import type { Profile } from '../columns/profile';

export interface CallNodeTable {
  /** The caller's node, -1 at a root; always lower than the node. */
  prefix: Int32Array;
  /** String index of the method name (the frames' name). */
  name: Int32Array;
  /** The frame kind of the first frame merged into the node. */
  kind: Uint8Array;
  /** 1 where the node's method appears nowhere among its callers (recursion counted once). */
  outermost: Uint8Array;
  /** Per stack row, its node. */
  ofStack: Int32Array;
  length: number;
}

const cache = new WeakMap<Profile['stacks'], CallNodeTable>();

/** The call-node table of `profile`, built once per stack table. */
export function callNodes(profile: Profile): CallNodeTable {
  let t = cache.get(profile.stacks);
  if (!t) {
    t = buildCallNodes(profile);
    cache.set(profile.stacks, t);
  }
  return t;
}

/** Merge stack rows by (caller's node, frame name) with an open-addressing hash over typed arrays. */
export function buildCallNodes(profile: Profile): CallNodeTable {
  const { frame, prefix: sPrefix, length: rows } = profile.stacks;
  const fname = profile.frames.name;
  const fkind = profile.frames.kind;
  const ofStack = new Int32Array(rows);
  const prefix = new Int32Array(rows);
  const name = new Int32Array(rows);
  const kind = new Uint8Array(rows);
  let size = 1024;
  while (size < rows * 2) size *= 2;
  const mask = size - 1;
  // Slot → node + 1 (0 empty).
  const slots = new Int32Array(size);
  let n = 0;
  for (let s = 0; s < rows; s++) {
    const p = sPrefix[s];
    // A prefix that is not an earlier row (never written by the parser) is taken as a root.
    const parent = p >= 0 && p < s ? ofStack[p] : -1;
    const f = frame[s];
    const nm = f >= 0 && f < fname.length ? fname[f] : 0;
    let h = (Math.imul(parent + 1, 0x9e3779b1) ^ Math.imul(nm, 0x85ebca77)) & mask;
    let node = -1;
    for (;;) {
      const at = slots[h];
      if (at === 0) break;
      if (prefix[at - 1] === parent && name[at - 1] === nm) {
        node = at - 1;
        break;
      }
      h = (h + 1) & mask;
    }
    if (node < 0) {
      node = n++;
      slots[h] = node + 1;
      prefix[node] = parent;
      name[node] = nm;
      kind[node] = f >= 0 && f < fkind.length ? fkind[f] : 0;
    }
    ofStack[s] = node;
  }
  return {
    prefix: prefix.slice(0, n),
    name: name.slice(0, n),
    kind: kind.slice(0, n),
    outermost: outermostOf(prefix, name, n, profile.strings.length),
    ofStack,
    length: n,
  };
}

/** Per node, whether its name is absent from its callers: a depth-first walk counting names on the path. */
function outermostOf(prefix: Int32Array, name: Int32Array, n: number, names: number): Uint8Array {
  const out = new Uint8Array(n);
  // Children in CSR form (first child offsets), then an explicit stack.
  const count = new Int32Array(n + 1);
  for (let k = 0; k < n; k++) if (prefix[k] >= 0) count[prefix[k] + 1]++;
  for (let k = 0; k < n; k++) count[k + 1] += count[k];
  const kids = new Int32Array(n);
  const fill = count.slice(0, n);
  for (let k = 0; k < n; k++) if (prefix[k] >= 0) kids[fill[prefix[k]]++] = k;
  const onPath = new Int32Array(Math.max(names, 1));
  // Stack entries: node (entered), or ~node (left).
  const todo = new Int32Array(2 * n + 1);
  let top = 0;
  for (let r = 0; r < n; r++) {
    if (prefix[r] >= 0) continue;
    todo[top++] = r;
    while (top > 0) {
      const x = todo[--top];
      if (x < 0) {
        onPath[name[~x]]--;
        continue;
      }
      out[x] = onPath[name[x]] === 0 ? 1 : 0;
      onPath[name[x]]++;
      todo[top++] = ~x;
      for (let c = count[x]; c < count[x + 1]; c++) todo[top++] = kids[c];
    }
  }
  return out;
}

/** Per node: weight where the node is the leaf (self), and of its whole subtree (total). */
export interface NodeWeights {
  self: Float64Array;
  total: Float64Array;
  /** Sum over the roots (the stacks' weights; "no stack" and "stack lost" not included). */
  sum: number;
}

/** Node weights from weights per stack row (calltree.ts weightSlots: the rows' slots are read). */
export function nodeWeights(t: CallNodeTable, weights: Float64Array): NodeWeights {
  const self = new Float64Array(t.length);
  const { ofStack, prefix } = t;
  const rows = ofStack.length;
  for (let s = 0; s < rows; s++) {
    const w = weights[s];
    if (w > 0) self[ofStack[s]] += w;
  }
  const total = self.slice();
  let sum = 0;
  for (let k = t.length - 1; k >= 0; k--) {
    const p = prefix[k];
    if (p >= 0) total[p] += total[k];
    else sum += total[k];
  }
  return { self, total, sum };
}

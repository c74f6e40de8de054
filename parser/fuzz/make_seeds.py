#!/usr/bin/env python3
"""Cuts the committed recordings into small, deep fuzz seeds: single chunks of a few KB that
still hold real metadata, constant pools and events of each kind.

    python3 parser/fuzz/make_seeds.py      # rewrites parser/fuzz/seeds/{jfr,decode_event}/

For each chunk of fixtures/*.jfr it keeps a handful of events (the first, or a later one, of
the types with stacks, then the most frequent), re-encodes them with arrays cut to a few elements (stack traces of
at most 4 frames), keeps only the pool entries those events reach (transitively), only the
classes those need (plus jdk.jfr.Label, with no other annotation or setting), and writes:

    header(68) | metadata | events... | checkpoint A | checkpoint B (delta → A)
                                                        ^ header's constant-pool offset

Every integer of these recordings is LEB128-compressed; the script refuses other chunks. Event
sizes are written in their shortest form, checkpoint deltas as nine-byte integers (any 64-bit
value in a fixed width, so no offset depends on another). decode_event seeds are a chunk plus
a five-byte trailer, `chunk index (u8) | event offset (u32 little-endian)`, naming a kept event
(see fuzz_targets/decode_event.rs).
"""
import glob
import os
import struct
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
OUT = os.path.join(ROOT, 'parser', 'fuzz', 'seeds')
ARRAY_CAP = 4
MAX_TYPES = 6


def varint(b, p):
    v = 0
    for i in range(8):
        x = b[p]
        p += 1
        v |= (x & 0x7f) << (7 * i)
        if x < 0x80:
            return v, p
    return v | b[p] << 56, p + 1


def enc(v):
    v &= (1 << 64) - 1
    out = bytearray()
    for _ in range(8):
        if v < 0x80:
            out.append(v)
            return bytes(out)
        out.append((v & 0x7f) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def enc9(v):
    """Any 64-bit value as exactly nine bytes."""
    v &= (1 << 64) - 1
    return bytes(((v >> (7 * i)) & 0x7f) | 0x80 for i in range(8)) + bytes([v >> 56])


def sized(body):
    """An event: its size (which counts itself) then `body`."""
    for n in range(1, 10):
        if len(enc(len(body) + n)) == n:
            return enc(len(body) + n) + body
    raise ValueError('event too large')


class Meta:
    def __init__(self, c, pos):
        size, p = varint(c, pos)
        ty, p = varint(c, p)
        assert ty == 0, 'metadata offset does not point at metadata'
        self.head = []
        for _ in range(3):  # start time, duration, metadata id
            v, p = varint(c, p)
            self.head.append(v)
        n, p = varint(c, p)
        self.strings = []
        for _ in range(n):
            s, p = read_string(c, p)
            self.strings.append(s)
        self.root, p = self.element(c, p)
        self.classes = {}
        for m in self.root[2]:
            if self.name(m) != 'metadata':
                continue
            for k in m[2]:
                if self.name(k) != 'class':
                    continue
                a = self.attrs(k)
                fields, stack = [], False
                for f in k[2]:
                    if self.name(f) == 'field':
                        fa = self.attrs(f)
                        fields.append((int(fa['class']), fa.get('constantPool') == 'true', fa.get('dimension', '0') != '0'))
                        stack |= fa.get('name') == 'stackTrace'
                self.classes[int(a['id'])] = dict(name=a['name'], elem=k, fields=fields, stack=stack, super=a.get('superType'))
        self.by_name = {v['name']: k for k, v in self.classes.items()}

    def element(self, c, p):
        name, p = varint(c, p)
        na, p = varint(c, p)
        attrs = []
        for _ in range(na):
            k, p = varint(c, p)
            v, p = varint(c, p)
            attrs.append((k, v))
        nc, p = varint(c, p)
        kids = []
        for _ in range(nc):
            e, p = self.element(c, p)
            kids.append(e)
        return (name, attrs, kids), p

    def name(self, e):
        return self.strings[e[0]][1]

    def attrs(self, e):
        return {self.strings[k][1]: self.strings[v][1] for k, v in e[1]}

    def write(self, keep):
        """The metadata event with only the classes in `keep`, annotations only to
        jdk.jfr.Label, no settings, and a string table of the strings still used."""
        label = self.by_name.get('jdk.jfr.Label')
        table, index = [], {}

        def s(i):
            if i not in index:
                index[i] = len(table)
                table.append(self.strings[i][0])
            return enc(index[i])

        def elem(e, kids):
            out = bytearray(s(e[0]) + enc(len(e[1])))
            for k, v in e[1]:
                out += s(k) + s(v)
            out += enc(len(kids))
            for k in kids:
                out += k
            return bytes(out)

        def cls(k):
            kids = []
            for f in k[2]:
                n = self.name(f)
                if n == 'field' or (n == 'annotation' and self.attrs(f).get('class') == str(label)):
                    kids.append(elem(f, [elem(g, []) for g in f[2] if self.name(g) == 'annotation' and self.attrs(g).get('class') == str(label)]))
            return elem(k, kids)

        top = []
        for m in self.root[2]:
            if self.name(m) == 'metadata':
                top.append(elem(m, [cls(k) for k in m[2] if self.name(k) == 'class' and int(self.attrs(k)['id']) in keep]))
            else:
                top.append(self.whole(m, s))
        root = elem(self.root, top)
        body = enc(0) + b''.join(enc(v) for v in self.head) + enc(len(table)) + b''.join(table) + root
        return sized(body)

    def whole(self, e, s):
        out = bytearray(s(e[0]) + enc(len(e[1])))
        for k, v in e[1]:
            out += s(k) + s(v)
        out += enc(len(e[2]))
        for k in e[2]:
            out += self.whole(k, s)
        return bytes(out)


def read_string(c, p):
    """(raw bytes, text) of the string at `p`, and the position after it."""
    start = p
    e = c[p]
    p += 1
    text = ''
    if e in (0, 1):
        pass
    elif e == 2:
        _, p = varint(c, p)
    elif e in (3, 5):
        n, p = varint(c, p)
        text = c[p:p + n].decode('utf-8' if e == 3 else 'latin-1', 'replace')
        p += n
    elif e == 4:
        n, p = varint(c, p)
        chars = []
        for _ in range(n):
            ch, p = varint(c, p)
            chars.append(chr(ch) if ch < 0x110000 else '?')
        text = ''.join(chars)
    else:
        raise ValueError(f'string encoding {e}')
    return (bytes(c[start:p]), text), p


PRIM = {'boolean': 1, 'byte': 1, 'char': 0, 'short': 0, 'int': 0, 'long': 0, 'float': 4, 'double': 8}


def value(md, c, p, cid, refs, depth=0):
    """Re-encode the inline value of class `cid` at `p` (arrays cut to ARRAY_CAP elements),
    noting the pool references it holds in `refs`. Returns (bytes, position after)."""
    k = md.classes[cid]
    if not k['fields']:
        n = k['name']
        if n == 'java.lang.String':
            (raw, _), q = read_string(c, p)
            if raw[0] == 2:
                refs.append((cid, varint(c, p + 1)[0]))
            return raw, q
        if n in PRIM:
            if PRIM[n]:
                return bytes(c[p:p + PRIM[n]]), p + PRIM[n]
            _, q = varint(c, p)
            return bytes(c[p:q]), q
        return b'', p
    assert depth < 20, 'nesting too deep'
    out = bytearray()
    for fcid, cpool, array in k['fields']:
        n = 1
        if array:
            n, p = varint(c, p)
            out += enc(min(n, ARRAY_CAP))
        for i in range(n):
            if cpool:
                ref, q = varint(c, p)
                refs.append((fcid, ref))
                b = bytes(c[p:q])
                p = q
            else:
                b, p = value(md, c, p, fcid, refs, depth + 1)
            if not array or i < ARRAY_CAP:
                out += b
    return bytes(out), p


def events(c):
    p = 68
    while p < len(c):
        size, q = varint(c, p)
        ty, body = varint(c, q)
        if size <= 0:
            return
        yield p, size, ty, body
        p += size


def cut(c, pick, max_types=MAX_TYPES):
    """One small chunk from chunk bytes `c`; `pick` chooses among each type's events."""
    size, cp_off, meta_off = struct.unpack('>qqq', c[8:32])
    flags = c[67]
    if not flags & 1:
        raise ValueError('integers not compressed')
    md = Meta(c, meta_off)
    by_type, checkpoints = {}, []
    for pos, sz, ty, body in events(c):
        if ty == 1:
            checkpoints.append(body)
        elif ty >= 2 and ty in md.classes:
            by_type.setdefault(ty, []).append(body)
    # Pool entries: (class id, entry id) → position of the value.
    pools, kinds = {}, []
    for body in checkpoints:
        p = body
        for _ in range(3):
            _, p = varint(c, p)
        kinds.append(c[p])
        p += 1
        npools, p = varint(c, p)
        for _ in range(npools):
            cid, p = varint(c, p)
            n, p = varint(c, p)
            for _ in range(n):
                eid, p = varint(c, p)
                pools.setdefault((cid, eid), p)
                _, p = value(md, c, p, cid, [])
    # Types with stacks first (what the views draw), then the most frequent.
    types = sorted(by_type, key=lambda t: (not md.classes[t]['stack'], -len(by_type[t])))[:max_types]
    kept, refs = [], []
    for t in sorted(types):
        for body in pick(by_type[t]):
            v, _ = value(md, c, body, t, refs)
            kept.append(sized(enc(t) + v))
    # The pool entries the kept events reach, transitively.
    entries, seen, todo = {}, set(), list(refs)
    while todo:
        r = todo.pop()
        if r in seen or r not in pools:
            continue
        seen.add(r)
        more = []
        entries[r], _ = value(md, c, pools[r], r[0], more)
        todo += more
    keep = set(types) | {cid for cid, _ in entries}
    if 'jdk.jfr.Label' in md.by_name:
        keep.add(md.by_name['jdk.jfr.Label'])
    todo = list(keep)
    while todo:
        for fcid, _, _ in md.classes[todo.pop()]['fields']:
            if fcid not in keep and fcid in md.classes:
                keep.add(fcid)
                todo.append(fcid)
    # Two checkpoints, the pools split between them; the header points at the second.
    by_class = {}
    for (cid, eid), v in sorted(entries.items()):
        by_class.setdefault(cid, []).append(enc(eid) + v)
    classes = sorted(by_class)
    halves = [classes[: len(classes) // 2], classes[len(classes) // 2:]]
    kind = kinds[0] if kinds else 0

    def checkpoint(cls, delta):
        body = enc(1) + enc(0) + enc(0) + enc9(delta) + bytes([kind]) + enc(len(cls))
        for cid in cls:
            body += enc(cid) + enc(len(by_class[cid])) + b''.join(by_class[cid])
        return sized(body)

    meta = md.write(keep)
    pos_meta = 68
    pos_events = pos_meta + len(meta)
    event_bytes = b''.join(kept)
    cp_a = checkpoint(halves[0], 0)
    pos_a = pos_events + len(event_bytes)
    pos_b = pos_a + len(cp_a)
    cp_b = checkpoint(halves[1], pos_a - pos_b)
    total = pos_b + len(cp_b)
    header = bytearray(c[:68])
    header[8:32] = struct.pack('>qqq', total, pos_b, pos_meta)
    offsets = [pos_events + sum(len(e) for e in kept[:i]) for i in range(len(kept))]
    return bytes(header) + meta + event_bytes + cp_a + cp_b, offsets


def chunks(d):
    off = 0
    while off + 68 <= len(d) and d[off:off + 4] == b'FLR\0':
        size = struct.unpack('>q', d[off + 8:off + 16])[0]
        yield d[off:off + size]
        off += size


def main():
    jfr = os.path.join(OUT, 'jfr')
    dev = os.path.join(OUT, 'decode_event')
    for d in (jfr, dev):
        os.makedirs(d, exist_ok=True)
        for f in glob.glob(os.path.join(d, '*')):
            os.remove(f)
    picks = {'first': lambda evs: evs[:1], 'later': lambda evs: [evs[len(evs) // 2]] + evs[-1:] if len(evs) > 1 else evs}
    made = {}
    for path in sorted(glob.glob(os.path.join(ROOT, 'fixtures', '*.jfr'))):
        stem = os.path.basename(path)[:-4]
        for ci, c in enumerate(chunks(open(path, 'rb').read())):
            for pname, pick in picks.items():
                name = f'{stem}-c{ci}-{pname}'
                try:
                    data, offsets = cut(c, pick)
                except (ValueError, AssertionError, IndexError, KeyError) as e:
                    print(f'{name}: skipped ({e})', file=sys.stderr)
                    continue
                made[name] = (data, offsets)
                open(os.path.join(jfr, name + '.jfr'), 'wb').write(data)
                for i in sorted({0, len(offsets) // 2, len(offsets) - 1}):
                    trailer = bytes([0]) + struct.pack('<I', offsets[i])
                    open(os.path.join(dev, f'{name}-e{i}'), 'wb').write(data + trailer)
    # A few files of two and three chunks, for chunks_agree (and decode_event in chunk 1).
    # (Two types per chunk: three chunks stay under chunks_agree's 8 KB.)
    multi = [cut(c, picks['first'], 2) for c in chunks(open(os.path.join(ROOT, 'fixtures', 'jdk17-multichunk.jfr'), 'rb').read())]
    small = [made[n] for n in sorted(made, key=lambda n: len(made[n][0]))[:2]]
    for name, parts in [('multichunk-3', multi), ('mixed-2', small)]:
        data = b''.join(p[0] for p in parts)
        open(os.path.join(jfr, name + '.jfr'), 'wb').write(data)
        second = len(parts[0][0]) + parts[1][1][0]
        open(os.path.join(dev, name), 'wb').write(data + bytes([1]) + struct.pack('<I', second))
    for d in (jfr, dev):
        sizes = [os.path.getsize(f) for f in glob.glob(os.path.join(d, '*'))]
        print(f'{os.path.relpath(d, ROOT)}: {len(sizes)} files, {sum(sizes)} bytes, largest {max(sizes)}')


if __name__ == '__main__':
    main()

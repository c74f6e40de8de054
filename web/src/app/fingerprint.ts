/**
 * A recording's fingerprint for links: `<size>-<hash of its first and last 256 KiB>` (`head` and
 * `tail` are those bytes: the whole file twice when it is smaller).
 */
export async function fingerprint(size: number, head: Uint8Array, tail: Uint8Array): Promise<string> {
  const joined = new Uint8Array(head.length + tail.length);
  joined.set(head);
  joined.set(tail, head.length);
  let hex: string;
  if (globalThis.crypto?.subtle) {
    const d = new Uint8Array(await crypto.subtle.digest('SHA-256', joined));
    hex = [...d.slice(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join('');
  } else {
    // FNV-1a, 2 × 32 bits, where WebCrypto is unavailable (plain http on another host).
    let a = 0x811c9dc5;
    let b = 0x01000193;
    for (let i = 0; i < joined.length; i++) {
      a = Math.imul(a ^ joined[i], 0x01000193) >>> 0;
      b = Math.imul(b ^ joined[joined.length - 1 - i], 0x01000193) >>> 0;
    }
    hex = a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
  }
  return `${size}-${hex}`;
}

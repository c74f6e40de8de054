/** A File-like Blob for the tests of reading a File: it counts its slices' reads and the bytes they read, and fails the read numbered `failAt`. */
export class Counting extends Blob {
  read = 0;
  reads = 0;
  failAt = -1;
  override slice(start = 0, end = this.size): Blob {
    const s = super.slice(start, end);
    const arrayBuffer = s.arrayBuffer.bind(s);
    s.arrayBuffer = () => {
      if (this.reads++ === this.failAt) return Promise.reject(new Error('NotReadableError'));
      this.read += s.size;
      return arrayBuffer();
    };
    return s;
  }
}

/** A `blob` option for sessionInNode that makes each Blob a Counting one, and the Blobs it made. */
export function countingBlobs(): { blobs: Counting[]; blob: (b: Uint8Array<ArrayBuffer>) => Counting } {
  const blobs: Counting[] = [];
  return {
    blobs,
    blob: (b) => {
      const f = new Counting([b]);
      blobs.push(f);
      return f;
    },
  };
}

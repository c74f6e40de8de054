/** Numbers as people read them in a profiler. */
import type { WeightMode } from './filters';

export function formatMs(ms: number): string {
  if (!isFinite(ms)) return '–';
  const a = Math.abs(ms);
  if (a >= 60_000) return `${Math.floor(ms / 60_000)}m${((ms % 60_000) / 1000).toFixed(1).padStart(4, '0')}s`;
  if (a >= 1000) return `${(ms / 1000).toFixed(a >= 10_000 ? 1 : 2)} s`;
  if (a >= 1) return `${ms.toFixed(a >= 100 ? 0 : 1)} ms`;
  return `${(ms * 1000).toFixed(0)} µs`;
}

export function formatBytes(b: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let u = 0;
  while (Math.abs(b) >= 1024 && u < units.length - 1) {
    b /= 1024;
    u++;
  }
  return `${b.toFixed(u === 0 ? 0 : 1)} ${units[u]}`;
}

const counts = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export function formatCount(n: number): string {
  return counts.format(Math.round(n));
}

export function formatWeight(v: number, mode: WeightMode): string {
  switch (mode) {
    case 'bytes':
      return formatBytes(v);
    case 'duration':
      return formatMs(v);
    case 'samples':
      return `${formatCount(v)} samples`;
    default:
      return `${formatCount(v)} events`;
  }
}

export function formatPercent(part: number, whole: number): string {
  if (!(whole > 0)) return '0%';
  const p = (100 * part) / whole;
  return `${p >= 10 ? p.toFixed(1) : p.toFixed(2)}%`;
}

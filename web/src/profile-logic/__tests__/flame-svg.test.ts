/**
 * The flame graph saved as SVG: a well-formed document whose frames are as wide as their weight,
 * roots at the bottom, names from the file kept as text (the hostile recording's thread names
 * and payloads never become markup).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { decodeInNode } from '../../engine/node';
import { callTree, type CallNode } from '../calltree';
import { flameSvg } from '../flame-svg';

const node = (name: string, value: number, children: CallNode[] = []): CallNode => ({ name, value, self: value - children.reduce((a, c) => a + c.value, 0), kind: 1, children });
const opts = { colors: ['#a', '#b', '#c', '#d', '#e', '#f', '#g'], rootColor: '#root', mode: 'samples' as const, title: 'test' };
const parse = (svg: string) => new new JSDOM().window.DOMParser().parseFromString(svg, 'image/svg+xml');

describe('flame graph as SVG', () => {
  it('draws each frame as wide as its weight, callers under callees', () => {
    const tree = node('all', 100, [node('main', 75, [node('work', 50)]), node('gc', 25)]);
    const { svg, width } = flameSvg(tree, { ...opts, width: 1000 });
    const doc = parse(svg);
    expect(doc.getElementsByTagName('parsererror').length).toBe(0);
    const frames = [...doc.querySelectorAll('g')].map((g) => ({
      title: g.querySelector('title')!.textContent!,
      x: Number(g.querySelector('rect')!.getAttribute('x')),
      y: Number(g.querySelector('rect')!.getAttribute('y')),
      w: Number(g.querySelector('rect')!.getAttribute('width')),
    }));
    const by = (n: string) => frames.find((f) => f.title.startsWith(`${n} ·`))!;
    expect(width).toBe(1000);
    // Each frame is its share of the width, less a half-pixel gap.
    expect(Math.abs(by('all').w - 1000)).toBeLessThanOrEqual(0.5);
    expect(Math.abs(by('main').w - 750)).toBeLessThanOrEqual(0.5);
    expect(Math.abs(by('work').w - 500)).toBeLessThanOrEqual(0.5);
    expect(by('gc').x).toBeCloseTo(750, 0);
    expect(by('main').y).toBeLessThan(by('all').y);
    expect(by('work').y).toBeLessThan(by('main').y);
    expect(by('gc').y).toBe(by('main').y);
    expect(by('work').title).toBe('work · 50 samples (50.0%)');
  });

  it('keeps the hostile recording’s names as text', () => {
    const p = decodeInNode(new Uint8Array(readFileSync(resolve(__dirname, '../../../../fixtures/hostile.jfr'))));
    const type = p.eventTypes.findIndex((t) => t.name === 'hostile.Payload');
    const w = new Float64Array(p.stacks.length + 2);
    for (let i = 0; i < p.events.length; i++) if (p.events.type[i] === type && p.events.stack[i] >= 0) w[p.events.stack[i]] += 1;
    const tree = callTree(p, w, '<script>window.__pwned=1</script> "all"');
    const { svg } = flameSvg(tree, { ...opts, title: 'evil\u202egnp.exe <b>' });
    const doc = parse(svg);
    expect(doc.getElementsByTagName('parsererror').length).toBe(0);
    expect(doc.querySelectorAll('script, b, img, foreignObject').length).toBe(0);
    expect(svg).not.toContain('\u202e');
    expect(doc.querySelector('title')!.textContent).toContain('<script>window.__pwned=1</script> "all"');
    expect(doc.querySelector('svg > text')!.textContent).toBe('evil\\u202egnp.exe <b>');
  });
});

// @vitest-environment jsdom
/**
 * settle writes what d3-flame-graph's transitions end on: a chart updated from one tree to
 * another and settled at once shows, frame for frame, the place, rect width and label that the
 * chart itself gives a fresh drawing of the second tree once its transitions have run; and no
 * transition of the chart is left to run after settle.
 */
import flamegraph, { type FlameNode } from 'd3-flame-graph';
import { select } from 'd3';
import { describe, expect, it } from 'vitest';
import { settle } from '../flame-settle';

interface T {
  name: string;
  value: number;
  children: T[];
}

const leaf = (name: string, value: number): T => ({ name, value, children: [] });
const node = (name: string, ...children: T[]): T => ({ name, value: children.reduce((s, c) => s + c.value, 0) + 1, children });

const before = node('all', node('a', leaf('a1', 40), leaf('a2', 10)), node('b', node('b1', leaf('b11', 30))), leaf('c', 5));
const after = node('all', node('a', leaf('a2', 70)), node('d', node('d1', leaf('d11', 20), leaf('d12', 25)), leaf('d2', 9)), node('b', leaf('b2', 12)));

const name = (d: FlameNode<T>) => d.data.name;

function chart(inverted: boolean) {
  return flamegraph<T>().width(640).cellHeight(18).minFrameSize(1).transitionDuration(0).inverted(inverted).sort(true).getName(name);
}

interface Frame {
  name: string;
  transform: string;
  width: string;
  label: string;
}

function frames(host: Element): Frame[] {
  return [...host.querySelectorAll('g.frame')]
    .map((g) => ({ name: g.getAttribute('name')!, transform: g.getAttribute('transform')!, width: g.querySelector('rect')!.getAttribute('width')!, label: g.querySelector('foreignObject div')!.textContent! }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

// A frame entering the chart grows its rect over 250 ms (the default duration; the chart sets
// only a delay there), whatever transitionDuration says.
const idle = () => new Promise((r) => setTimeout(r, 400));

describe('settle', () => {
  for (const inverted of [false, true]) {
    it(`ends the chart's transitions as the chart does (${inverted ? 'inverted' : 'normal'})`, async () => {
      // Truth: a fresh drawing of `after` (places written at once), its transitions run out.
      const fresh = document.createElement('div');
      document.body.append(fresh);
      select(fresh).datum(after).call(chart(inverted));
      await idle();
      const want = frames(fresh);
      expect(want.map((f) => f.label)).toEqual(want.map((f) => f.name));

      // An update in place from `before`, settled at once.
      const host = document.createElement('div');
      document.body.append(host);
      const c = chart(inverted);
      select(host).datum(before).call(c);
      await idle();
      c.height(0);
      c.update(after);
      const stale = frames(host);
      settle({ host, width: c.width(), height: c.height(), cell: 18, inverted, name });
      const got = frames(host);
      expect(got).toEqual(want);
      // Without settle the update in place would have shown something else until a frame later.
      expect(stale).not.toEqual(want);
      // And nothing the chart scheduled changes it afterwards.
      await idle();
      expect(frames(host)).toEqual(want);
    });
  }
});

declare module 'd3-flame-graph' {
  export interface FlameNode<T> {
    data: T;
    value: number;
    depth: number;
    parent: FlameNode<T> | null;
  }
  export interface FlameGraph<T> {
    (selection: unknown): void;
    width(w: number): FlameGraph<T>;
    width(): number;
    height(h: number): FlameGraph<T>;
    height(): number;
    minHeight(h: number): FlameGraph<T>;
    cellHeight(h: number): FlameGraph<T>;
    transitionDuration(ms: number): FlameGraph<T>;
    minFrameSize(px: number): FlameGraph<T>;
    inverted(b: boolean): FlameGraph<T>;
    sort(b: boolean | ((a: FlameNode<T>, b: FlameNode<T>) => number)): FlameGraph<T>;
    selfValue(b: boolean): FlameGraph<T>;
    title(t: string): FlameGraph<T>;
    tooltip(t: unknown): FlameGraph<T>;
    setColorMapper(f: (d: FlameNode<T>, original: string) => string): FlameGraph<T>;
    setLabelHandler(f: (d: FlameNode<T>) => string): FlameGraph<T>;
    /** The name drawn in each frame (and used to sort siblings). */
    getName(f: (d: FlameNode<T>) => string): FlameGraph<T>;
    setSearchMatch(f: (d: FlameNode<T>, term: string, ignoreCase?: boolean) => boolean): FlameGraph<T>;
    search(term: string): void;
    clear(): void;
    resetZoom(): void;
    zoomTo(d: FlameNode<T>): void;
    update(data?: T): void;
    destroy(): void;
    onClick(f: (d: FlameNode<T>) => void): FlameGraph<T>;
  }
  export default function flamegraph<T = unknown>(): FlameGraph<T>;
  export const tooltip: {
    defaultFlamegraphTooltip(): { text(f: (d: FlameNode<unknown>) => string): unknown };
  };
}

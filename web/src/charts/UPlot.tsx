import type { JSX } from "preact";
import { useEffect, useRef } from "preact/hooks";
import uPlot from "uplot";

type Box = Omit<JSX.HTMLAttributes<HTMLDivElement>, "ref" | "width" | "height" | "data">;

/** A plot's options but its size (``UPlot``'s props). */
export type PlotOptions = Omit<uPlot.Options, "width" | "height">;

interface Props extends Box {
  /** what to draw (width and height aside); null: no plot (the chart says why beside it) */
  options: PlotOptions | null;
  data: uPlot.AlignedData;
  /** while it stays the same, new ``data`` is drawn into the plot there is (cheap: no new
   *  canvas); a change (other series, another scale) makes a new plot from ``options`` */
  shape: string;
  height: number;
  /** a fixed width; none: the box's, following the window's */
  width?: number;
  /** new data keeps the scales the reader chose (a zoom) */
  keepScales?: boolean;
  /** each plot made (null: the last one gone) */
  onPlot?: (plot: uPlot | null) => void;
}

/** A uPlot canvas in a box: made, fed new data, remade and destroyed here only. The tick labels
 *  it paints are kept on the box too (data-x-ticks, data-y-ticks), where a reader of the page (or
 *  a test) finds them. The rest of ``Props`` are the box's attributes. */
export function UPlot({ options, data, shape, height, width, keepScales = false, onPlot, ...box }: Props) {
  const target = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const drawn = useRef<string | null>(null);

  useEffect(() => {
    const element = target.current;
    if (!element) return;
    if (plot.current && options && drawn.current === shape) {
      plot.current.setData(data, !keepScales);
      return;
    }
    plot.current?.destroy();
    plot.current = null;
    drawn.current = shape;
    if (options) {
      const size = { width: width ?? (element.clientWidth || 800), height };
      plot.current = new uPlot({ ...keptTicks(options, element), ...size }, data, element);
    }
    onPlot?.(plot.current);
  }, [data, shape, options === null]);

  useEffect(() => () => plot.current?.destroy(), []);

  useEffect(() => {
    if (width !== undefined) return;
    const resize = () => target.current && plot.current?.setSize({ width: target.current.clientWidth, height });
    window.addEventListener("resize", resize);
    return () => window.removeEventListener("resize", resize);
  }, [width, height]);

  return <div ref={target} {...box} />;
}

/** ``options`` whose axes' labels are also written on ``box`` as they are painted. */
function keptTicks(options: PlotOptions, box: HTMLElement): PlotOptions {
  return {
    ...options,
    axes: options.axes?.map((axis, i) => {
      const values = axis.values;
      if (typeof values !== "function") return axis;
      return {
        ...axis,
        values: (u: uPlot, splits: number[], ...rest: [number, number, number]) => {
          const labels = values(u, splits, ...rest);
          box.dataset[`${i === 0 ? "x" : "y"}Ticks`] = labels.join("|");
          return labels;
        },
      };
    }),
  };
}

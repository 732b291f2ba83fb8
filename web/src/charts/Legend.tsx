import { formatValue, metricColour } from "../shape";

export type Mark = "line" | "dash" | "dot" | "ring" | "cross" | "bold";

export interface LegendItem { label: string; colour: string; mark?: Mark; title?: string }

/** What a chart's colours and marks stand for, one entry each. */
export function Legend({ items, name }: { items: LegendItem[]; name: string }) {
  if (!items.length) return null;
  return (
    <ul class="legend" data-testid="legend" data-chart={name} aria-label={`legend of the ${name}`}>
      {items.map((item) => (
        <li key={item.label} data-entry={item.label} title={item.title}>
          <svg width="18" height="10" aria-hidden="true">{swatch(item.mark ?? "dot", item.colour)}</svg>
          {item.label}
        </li>
      ))}
    </ul>
  );
}

function swatch(mark: Mark, colour: string) {
  switch (mark) {
    case "line": return <line x1="1" x2="17" y1="5" y2="5" stroke={colour} stroke-width="2" />;
    case "bold": return <line x1="1" x2="17" y1="5" y2="5" stroke={colour} stroke-width="4" />;
    case "dash": return <line x1="1" x2="17" y1="5" y2="5" stroke={colour} stroke-width="2" stroke-dasharray="4 3" />;
    case "ring": return <circle cx="9" cy="5" r="3.5" fill="#0f172a" stroke="white" stroke-width="1.5" />;
    case "cross": return <path d="M5,1L13,9M5,9L13,1" stroke={colour} stroke-width="2" />;
    default: return <circle cx="9" cy="5" r="4" fill={colour} />;
  }
}

/** The metric's colour scale (light worst to dark best) with the values at its ends. */
export function ColourScale({ metric, worst, best }: { metric: string; worst: number; best: number }) {
  const stops = [0, 0.25, 0.5, 0.75, 1].map((p) => `${metricColour(p)} ${p * 100}%`).join(", ");
  return (
    <div class="legend colour-scale" data-testid="colour-scale" data-worst={worst} data-best={best}>
      <span>{metric}: worst {formatValue(worst)}</span>
      <span class="gradient" style={{ background: `linear-gradient(to right, ${stops})` }} />
      <span>best {formatValue(best)}</span>
    </div>
  );
}

/**
 * The optional signature drawing, kept as the signature field's draft answer
 * `{drawing: "M x y L x y ..."}`: SVG path data with whole numbers in a fixed drawing
 * box, so it redraws at any screen size and stays within the catalogue's drawing rule
 * (path letters, digits and spaces; at most DRAWING_LIMIT characters).
 */

export interface Point {
  x: number;
  y: number;
}

export type Stroke = Point[];

/** The drawing box in path units; the canvas scales it to its own size. */
export const DRAWING_WIDTH = 600;
export const DRAWING_HEIGHT = 200;
/** The catalogue's cap on a drawing answer (answerShapeProblem's too_long for signatures). */
export const DRAWING_LIMIT = 50_000;

const clamp = (value: number, max: number) => Math.min(max, Math.max(0, Math.round(value)));

/** A point in the drawing box from a point on a canvas of `width` x `height` screen pixels. */
export function toDrawingPoint(x: number, y: number, width: number, height: number): Point {
  return {
    x: clamp(width > 0 ? (x / width) * DRAWING_WIDTH : 0, DRAWING_WIDTH),
    y: clamp(height > 0 ? (y / height) * DRAWING_HEIGHT : 0, DRAWING_HEIGHT),
  };
}

function distanceToSegment(point: Point, start: Point, end: Point): number {
  const dx = end.x - start.x;
  const dy = end.y - start.y;
  const lengthSquared = dx * dx + dy * dy;
  if (lengthSquared === 0) return Math.hypot(point.x - start.x, point.y - start.y);
  const t = Math.max(0, Math.min(1, ((point.x - start.x) * dx + (point.y - start.y) * dy) / lengthSquared));
  return Math.hypot(point.x - (start.x + t * dx), point.y - (start.y + t * dy));
}

/**
 * Fewer points for the same line (Ramer-Douglas-Peucker): a point closer than `tolerance`
 * to the line through its neighbours adds nothing a viewer would see.
 */
export function simplifyStroke(stroke: Stroke, tolerance: number): Stroke {
  const points = stroke.filter(
    (point, index) => index === 0 || point.x !== stroke[index - 1]!.x || point.y !== stroke[index - 1]!.y,
  );
  if (points.length <= 2 || tolerance <= 0) return points;
  const keep = new Array<boolean>(points.length).fill(false);
  keep[0] = true;
  keep[points.length - 1] = true;
  const ranges: [number, number][] = [[0, points.length - 1]];
  while (ranges.length > 0) {
    const [first, last] = ranges.pop()!;
    let farthest = -1;
    let farthestDistance = tolerance;
    for (let index = first + 1; index < last; index += 1) {
      const distance = distanceToSegment(points[index]!, points[first]!, points[last]!);
      if (distance > farthestDistance) {
        farthest = index;
        farthestDistance = distance;
      }
    }
    if (farthest !== -1) {
      keep[farthest] = true;
      ranges.push([first, farthest], [farthest, last]);
    }
  }
  return points.filter((_, index) => keep[index]);
}

/** SVG path data for the strokes; a single tap becomes a dot (a line to itself). */
export function strokesToPath(strokes: Stroke[]): string {
  return strokes
    .filter((stroke) => stroke.length > 0)
    .map((stroke) => {
      const [first, ...rest] = stroke;
      const line = (rest.length > 0 ? rest : [first!]).map((point) => `L ${point.x} ${point.y}`);
      return [`M ${first!.x} ${first!.y}`, ...line].join(' ');
    })
    .join(' ');
}

/** The strokes of stored path data; anything but M and L commands with numbers is skipped. */
export function pathToStrokes(path: string): Stroke[] {
  const strokes: Stroke[] = [];
  const tokens = path.match(/[MLml]|-?\d+(?:\.\d+)?/g) ?? [];
  let command = '';
  let index = 0;
  while (index < tokens.length) {
    const token = tokens[index]!;
    if (/^[MLml]$/.test(token)) {
      command = token.toUpperCase();
      index += 1;
      continue;
    }
    const x = Number(token);
    const y = Number(tokens[index + 1]);
    index += 2;
    if (!Number.isFinite(x) || !Number.isFinite(y)) break;
    const point = { x: clamp(x, DRAWING_WIDTH), y: clamp(y, DRAWING_HEIGHT) };
    if (command === 'M' || strokes.length === 0) {
      strokes.push([point]);
      command = 'L';
    } else strokes[strokes.length - 1]!.push(point);
  }
  return strokes;
}

/**
 * Path data for the strokes within `limit` characters: simplified a little always, more
 * while the text is too long (at the box's size a stroke keeps only its ends); null when
 * even that does not fit.
 */
export function drawingPath(strokes: Stroke[], limit = DRAWING_LIMIT): string | null {
  for (const tolerance of [0.75, 1.5, 3, 6, 12, 24, 48, 96, 192, DRAWING_WIDTH]) {
    const path = strokesToPath(strokes.map((stroke) => simplifyStroke(stroke, tolerance)));
    if (path.length <= limit) return path;
  }
  return null;
}

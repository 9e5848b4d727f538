import { describe, expect, it } from 'vitest';
import { answerShapeProblem } from '../../../../templates/contract/field-catalogue.ts';
import {
  DRAWING_LIMIT,
  drawingPath,
  pathToStrokes,
  simplifyStroke,
  strokesToPath,
  toDrawingPoint,
  type Stroke,
} from './drawing-path.ts';

const signatureField = { id: 'sign', type: 'signature', label: 'Sign', is_required: true, config: {} };

describe('drawing paths', () => {
  it('maps screen points into the drawing box as whole numbers within it', () => {
    expect(toDrawingPoint(150.4, 50.2, 300, 100)).toEqual({ x: 301, y: 100 });
    expect(toDrawingPoint(-5, 500, 300, 100)).toEqual({ x: 0, y: 200 });
  });

  it('writes strokes as M/L path data and reads them back', () => {
    const strokes: Stroke[] = [
      [
        { x: 1, y: 2 },
        { x: 3, y: 4 },
      ],
      [{ x: 10, y: 20 }],
    ];
    const path = strokesToPath(strokes);
    expect(path).toBe('M 1 2 L 3 4 M 10 20 L 10 20');
    expect(pathToStrokes(path)).toEqual([strokes[0], [strokes[1]![0], strokes[1]![0]]]);
    expect(pathToStrokes('')).toEqual([]);
  });

  it('drops points on a straight line and keeps corners', () => {
    const line = Array.from({ length: 50 }, (_, index) => ({ x: index, y: index }));
    expect(simplifyStroke(line, 1)).toEqual([
      { x: 0, y: 0 },
      { x: 49, y: 49 },
    ]);
    const corner = [
      { x: 0, y: 0 },
      { x: 5, y: 0 },
      { x: 10, y: 0 },
      { x: 10, y: 5 },
      { x: 10, y: 10 },
    ];
    expect(simplifyStroke(corner, 1)).toEqual([
      { x: 0, y: 0 },
      { x: 10, y: 0 },
      { x: 10, y: 10 },
    ]);
  });

  it('drops repeated points', () => {
    expect(
      simplifyStroke(
        [
          { x: 1, y: 1 },
          { x: 1, y: 1 },
        ],
        0,
      ),
    ).toEqual([{ x: 1, y: 1 }]);
  });

  it('keeps a long scribble within the limit the catalogue accepts', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    };
    const strokes: Stroke[] = Array.from({ length: 40 }, () =>
      Array.from({ length: 400 }, () => ({ x: Math.round(random() * 600), y: Math.round(random() * 200) })),
    );
    expect(strokesToPath(strokes).length).toBeGreaterThan(DRAWING_LIMIT);
    const path = drawingPath(strokes);
    expect(path).not.toBeNull();
    expect(path!.length).toBeLessThanOrEqual(DRAWING_LIMIT);
    expect(answerShapeProblem(signatureField, { drawing: path })).toBeNull();
  });

  it('keeps the shape of a smooth stroke with few points', () => {
    const wave = Array.from({ length: 600 }, (_, x) => ({ x, y: Math.round(100 + 80 * Math.sin(x / 40)) }));
    const path = drawingPath([wave])!;
    const kept = pathToStrokes(path)[0]!;
    expect(kept.length).toBeLessThan(150);
    // Every drawn point stays within a unit of the simplified line.
    const toSegment = (
      p: { x: number; y: number },
      a: { x: number; y: number },
      b: { x: number; y: number },
    ) => {
      const [dx, dy] = [b.x - a.x, b.y - a.y];
      const t = Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / (dx * dx + dy * dy || 1)));
      return Math.hypot(p.x - a.x - t * dx, p.y - a.y - t * dy);
    };
    for (const point of wave) {
      const nearest = Math.min(...kept.slice(1).map((end, index) => toSegment(point, kept[index]!, end)));
      expect(nearest).toBeLessThanOrEqual(1);
    }
  });

  it('gives up only when the strokes alone are too many', () => {
    const taps: Stroke[] = Array.from({ length: 3000 }, (_, index) => [{ x: index % 600, y: 100 }]);
    expect(drawingPath(taps)).toBeNull();
  });

  it('matches the catalogue limit', () => {
    expect(answerShapeProblem(signatureField, { drawing: 'M 1 1 '.repeat(DRAWING_LIMIT / 6) })).toBeNull();
    expect(answerShapeProblem(signatureField, { drawing: 'M 1 1 '.repeat(DRAWING_LIMIT / 6 + 1) })).toEqual({
      code: 'too_long',
      params: { max: DRAWING_LIMIT },
    });
  });
});

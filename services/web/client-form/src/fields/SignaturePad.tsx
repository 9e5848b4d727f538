/**
 * The optional drawn signature: a canvas drawn on with a finger, pen or mouse (pointer
 * events; touch-action none so the page does not scroll under the finger). It is a pointer
 * extra: the typed name is the signature, so keyboard users skip the canvas and lose
 * nothing. Each finished stroke hands the whole drawing up as path data.
 */
import { useEffect, useRef } from 'preact/hooks';
import type { Translate } from '../i18n.ts';
import {
  DRAWING_HEIGHT,
  DRAWING_WIDTH,
  drawingPath,
  pathToStrokes,
  toDrawingPoint,
  type Stroke,
} from './drawing-path.ts';

interface PadProps {
  /** The stored path data, or null for no drawing. */
  path: string | null;
  onChange(path: string | null): void;
  idPrefix: string;
  t: Translate;
}

function paint(canvas: HTMLCanvasElement, strokes: Stroke[]) {
  const context = canvas.getContext('2d');
  if (!context) return;
  const ratio = window.devicePixelRatio || 1;
  const { width, height } = canvas.getBoundingClientRect();
  if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
  }
  context.setTransform(1, 0, 0, 1, 0, 0);
  context.clearRect(0, 0, canvas.width, canvas.height);
  context.scale(canvas.width / DRAWING_WIDTH, canvas.height / DRAWING_HEIGHT);
  context.lineWidth = 3;
  context.lineCap = 'round';
  context.lineJoin = 'round';
  context.strokeStyle = getComputedStyle(canvas).color || '#1a1a1a';
  for (const stroke of strokes) {
    const [first, ...rest] = stroke;
    if (!first) continue;
    context.beginPath();
    context.moveTo(first.x, first.y);
    for (const point of rest.length > 0 ? rest : [first]) context.lineTo(point.x, point.y);
    context.stroke();
  }
}

export function SignaturePad({ path, onChange, idPrefix, t }: PadProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const strokes = useRef<Stroke[]>(path ? pathToStrokes(path) : []);
  const drawing = useRef<Stroke | null>(null);
  const sent = useRef<string | null>(path);

  // A drawing saved elsewhere (a reload, another tab) replaces the one on screen.
  useEffect(() => {
    if (path !== sent.current) {
      sent.current = path;
      strokes.current = path ? pathToStrokes(path) : [];
      if (canvas.current) paint(canvas.current, strokes.current);
    }
  }, [path]);

  useEffect(() => {
    const element = canvas.current;
    if (!element) return undefined;
    paint(element, strokes.current);
    const observer = new ResizeObserver(() => paint(element, strokes.current));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const pointAt = (event: PointerEvent) => {
    const box = canvas.current?.getBoundingClientRect();
    if (!box) return { x: 0, y: 0 };
    return toDrawingPoint(event.clientX - box.left, event.clientY - box.top, box.width, box.height);
  };

  const finish = () => {
    if (!drawing.current) return;
    drawing.current = null;
    const next = drawingPath(strokes.current);
    if (next === null) {
      // Past the drawing's size limit the last stroke is not kept.
      strokes.current = strokes.current.slice(0, -1);
      if (canvas.current) paint(canvas.current, strokes.current);
      return;
    }
    sent.current = next;
    onChange(next);
  };

  const labelId = `${idPrefix}-draw-label`;
  const helpId = `${idPrefix}-draw-help`;
  return (
    <div class="signature__pad" role="group" aria-labelledby={labelId} aria-describedby={helpId}>
      <p id={labelId} class="signature__pad-label">
        {t('signature.draw')}
      </p>
      <p id={helpId} class="field__hint">
        {t('signature.drawHelp')}
      </p>
      <canvas
        ref={canvas}
        class="signature__canvas"
        aria-hidden="true"
        onPointerDown={(event) => {
          if (event.button !== 0) return;
          event.preventDefault();
          (event.currentTarget as HTMLCanvasElement).setPointerCapture(event.pointerId);
          drawing.current = [pointAt(event)];
          strokes.current = [...strokes.current, drawing.current];
          if (canvas.current) paint(canvas.current, strokes.current);
        }}
        onPointerMove={(event) => {
          const stroke = drawing.current;
          if (!stroke) return;
          const events = event.getCoalescedEvents?.() ?? [event];
          for (const moved of events.length > 0 ? events : [event]) {
            const point = pointAt(moved);
            const last = stroke[stroke.length - 1];
            if (!last || last.x !== point.x || last.y !== point.y) stroke.push(point);
          }
          if (canvas.current) paint(canvas.current, strokes.current);
        }}
        onPointerUp={finish}
        onPointerCancel={finish}
      />
      <button
        type="button"
        class="button secondary signature__clear"
        onClick={() => {
          strokes.current = [];
          drawing.current = null;
          if (canvas.current) paint(canvas.current, strokes.current);
          sent.current = null;
          onChange(null);
        }}
      >
        {t('signature.clear')}
      </button>
    </div>
  );
}

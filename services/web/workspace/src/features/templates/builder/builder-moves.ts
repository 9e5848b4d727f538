import { useEffect, useRef, useState } from 'preact/hooks';
import { t } from '../../../i18n.ts';
import { moveItem, type BuilderField, type BuilderStep, type BuilderTemplate } from '../template-model.ts';
import type { MoveControls } from './builder-field.tsx';

/** What is being dragged: a step, or a field of a step. */
type Dragged = { kind: 'step'; stepId: string } | { kind: 'field'; stepId: string; fieldId: string };

export const typeName = (type: string) => t(`fieldType.${type}`);

/**
 * Where a move leaves the focus and what is dragged: after a move by keyboard, focus stays
 * on the moved item's button (or its other one at an edge).
 */
export function useMoveFocus(template: BuilderTemplate | null) {
  const [focusId, setFocusId] = useState<string | null>(null);
  const dragged = useRef<Dragged | null>(null);
  useEffect(() => {
    if (!focusId) return;
    const wanted = document.getElementById(focusId) as HTMLButtonElement | null;
    const other = focusId.startsWith('move-up-')
      ? focusId.replace('move-up-', 'move-down-')
      : focusId.replace('move-down-', 'move-up-');
    const target = wanted && !wanted.disabled ? wanted : (document.getElementById(other) ?? wanted);
    target?.focus();
    setFocusId(null);
  }, [focusId, template]);
  return { setFocusId, dragged };
}

/** The moves of the template's steps and fields, by keyboard and by drag, each announced. */
export function builderMoves({
  template,
  update,
  announce,
  setFocusId,
  dragged,
}: ReturnType<typeof useMoveFocus> & {
  template: BuilderTemplate;
  update: (change: (draft: BuilderTemplate) => void) => void;
  announce: (text: string) => void;
}) {
  const moveStep = (from: number, to: number, viaKeyboard: boolean) => {
    const step = template.steps[from];
    if (!step || to < 0 || to >= template.steps.length) return;
    update((draft) => (draft.steps = moveItem(draft.steps, from, to)));
    announce(
      t('builder.movedStep', {
        name: step.title || t('builder.untitledStep'),
        position: to + 1,
        count: template.steps.length,
      }),
    );
    if (viaKeyboard) setFocusId(`${to < from ? 'move-up' : 'move-down'}-${step.id}`);
  };
  const moveField = (stepId: string, from: number, toStepId: string, to: number, viaKeyboard: boolean) => {
    const source = template.steps.find((step) => step.id === stepId);
    const target = template.steps.find((step) => step.id === toStepId);
    const field = source?.fields[from];
    if (!source || !target || !field) return;
    if (stepId === toStepId && (to < 0 || to >= source.fields.length)) return;
    update((draft) => {
      const s = draft.steps.find((step) => step.id === stepId)!;
      const d = draft.steps.find((step) => step.id === toStepId)!;
      if (s === d) s.fields = moveItem(s.fields, from, to);
      else {
        const [moved] = s.fields.splice(from, 1);
        d.fields.splice(Math.min(to, d.fields.length), 0, moved!);
      }
    });
    const count = stepId === toStepId ? source.fields.length : target.fields.length + 1;
    announce(
      t('builder.movedField', {
        name: field.label || typeName(field.type),
        position: Math.min(to, count - 1) + 1,
        count,
        step: target.title || t('builder.untitledStep'),
      }),
    );
    if (viaKeyboard) setFocusId(`${to < from ? 'move-up' : 'move-down'}-${field.id}`);
  };
  const draggedFieldAt = (from: { stepId: string; fieldId: string }) =>
    template.steps.find((s) => s.id === from.stepId)?.fields.findIndex((f) => f.id === from.fieldId) ?? -1;
  const startDrag = (event: DragEvent, what: Dragged, id: string) => {
    dragged.current = what;
    event.dataTransfer?.setData('text/plain', id);
    if (event.dataTransfer) event.dataTransfer.effectAllowed = 'move';
  };

  const stepMoves = (step: BuilderStep, index: number): MoveControls => ({
    position: index,
    count: template.steps.length,
    onMove: (delta) => moveStep(index, index + delta, true),
    onDragStart: (event) => startDrag(event, { kind: 'step', stepId: step.id }, step.id),
    onDrop: (event) => {
      event.preventDefault();
      const from = dragged.current;
      dragged.current = null;
      if (from?.kind === 'step') {
        moveStep(
          template.steps.findIndex((s) => s.id === from.stepId),
          index,
          false,
        );
      } else if (from?.kind === 'field') {
        const at = draggedFieldAt(from);
        if (from.stepId !== step.id) moveField(from.stepId, at, step.id, step.fields.length, false);
      }
    },
  });
  const fieldMoves = (step: BuilderStep, field: BuilderField, index: number): MoveControls => ({
    position: index,
    count: step.fields.length,
    onMove: (delta) => moveField(step.id, index, step.id, index + delta, true),
    onDragStart: (event) => {
      event.stopPropagation();
      startDrag(event, { kind: 'field', stepId: step.id, fieldId: field.id }, field.id);
    },
    onDrop: (event) => {
      event.preventDefault();
      event.stopPropagation();
      const from = dragged.current;
      dragged.current = null;
      if (from?.kind !== 'field') return;
      const at = draggedFieldAt(from);
      if (at >= 0) moveField(from.stepId, at, step.id, index, false);
    },
  });
  return { stepMoves, fieldMoves };
}

import { choiceOptions } from '../../../../templates/contract/field-catalogue.ts';
import type { FieldProps } from './field-props.ts';
import { FieldFrame } from './FieldFrame.tsx';

/**
 * The options of a choice field as a radio or a checkbox group in the field's frame, each
 * with its label. A radio group says it is invalid on the group (role radiogroup); a
 * checkbox group marks each input.
 */
export function ChoiceGroup(
  props: FieldProps & {
    type: 'radio' | 'checkbox';
    checked(value: string): boolean;
    onChoose(value: string, on: boolean): void;
  },
) {
  const { field, problem, ids, t, formats, type } = props;
  const invalid = type === 'checkbox' && !!problem;
  const group = type === 'radio' ? 'radios' : 'checkboxes';
  return (
    <FieldFrame field={field} ids={ids} problem={problem} t={t} formats={formats} group={group}>
      <div class="field__choices">
        {choiceOptions(field).map((option, index) => {
          const id = index === 0 ? ids.input : `${ids.input}-${index}`;
          return (
            <div class="field__choice" key={option.value}>
              <input
                class="field__choice-input"
                type={type}
                id={id}
                name={`${ids.input}-options`}
                value={option.value}
                checked={props.checked(option.value)}
                aria-invalid={invalid ? 'true' : undefined}
                onChange={(event) => props.onChoose(option.value, event.currentTarget.checked)}
              />
              <label class="field__choice-label" for={id}>
                {option.label}
              </label>
            </div>
          );
        })}
      </div>
    </FieldFrame>
  );
}

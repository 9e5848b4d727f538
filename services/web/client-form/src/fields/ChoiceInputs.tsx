import type { FieldIds } from './field-props.ts';

/** The options of a choice field as radio buttons or checkboxes, each with its label. */
export function ChoiceInputs(props: {
  type: 'radio' | 'checkbox';
  options: { value: string; label: string }[];
  ids: FieldIds;
  checked(value: string): boolean;
  onChoose(value: string, on: boolean): void;
  /** Marks each input invalid (a checkbox group; a radio group says it on the group). */
  invalid?: boolean;
}) {
  const { ids } = props;
  return (
    <div class="field__choices">
      {props.options.map((option, index) => {
        const id = index === 0 ? ids.input : `${ids.input}-${index}`;
        return (
          <div class="field__choice" key={option.value}>
            <input
              class="field__choice-input"
              type={props.type}
              id={id}
              name={`${ids.input}-options`}
              value={option.value}
              checked={props.checked(option.value)}
              aria-invalid={props.invalid ? 'true' : undefined}
              onChange={(event) => props.onChoose(option.value, event.currentTarget.checked)}
            />
            <label class="field__choice-label" for={id}>
              {option.label}
            </label>
          </div>
        );
      })}
    </div>
  );
}

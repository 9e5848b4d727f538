/** Any number of options, as a checkbox group under the field's label; the answer lists the chosen values in the options' order. */
import { choiceOptions } from '../../../../templates/contract/field-catalogue.ts';
import type { FieldProps } from './field-props.ts';
import { FieldFrame } from './FieldFrame.tsx';

export function MultipleChoiceField({ field, value, onChange, problem, ids, t, formats }: FieldProps) {
  const options = choiceOptions(field);
  const chosen = new Set(Array.isArray(value) ? value.filter((item) => typeof item === 'string') : []);
  const toggle = (choice: string, on: boolean) => {
    if (on) chosen.add(choice);
    else chosen.delete(choice);
    onChange(options.map((option) => option.value).filter((item) => chosen.has(item)));
  };
  return (
    <FieldFrame field={field} ids={ids} problem={problem} t={t} formats={formats} group>
      <div class="field__choices">
        {options.map((option, index) => {
          const id = index === 0 ? ids.input : `${ids.input}-${index}`;
          return (
            <div class="field__choice" key={option.value}>
              <input
                class="field__choice-input"
                type="checkbox"
                id={id}
                name={`${ids.input}-options`}
                value={option.value}
                checked={chosen.has(option.value)}
                aria-invalid={problem ? 'true' : undefined}
                onChange={(event) => toggle(option.value, event.currentTarget.checked)}
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

/**
 * The one required note of a dialog (a review's reason, Mark as paid's note): its label, a
 * hint, the refusal in words when it is empty, and a textarea described by both.
 */
export function NoteField(props: {
  id: string;
  label: string;
  hint: string;
  invalid: string | null;
  rows: number;
  maxLength: number;
  value: string;
  onInput: (value: string) => void;
}) {
  const { id, invalid } = props;
  return (
    <div class={`field${invalid ? ' field-invalid' : ''}`}>
      <label for={id}>{props.label}</label>
      <div id={`${id}-hint`} class="hint">
        {props.hint}
      </div>
      {invalid ? (
        <p id={`${id}-error`} class="field-error">
          {invalid}
        </p>
      ) : null}
      <textarea
        id={id}
        rows={props.rows}
        maxLength={props.maxLength}
        required
        autoFocus
        value={props.value}
        aria-invalid={invalid ? 'true' : undefined}
        aria-describedby={`${id}-hint${invalid ? ` ${id}-error` : ''}`}
        onInput={(event) => props.onInput((event.target as HTMLTextAreaElement).value)}
      />
    </div>
  );
}

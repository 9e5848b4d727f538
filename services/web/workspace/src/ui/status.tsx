/** A polite live region for progress and success; always in the page so changes are announced. */
export function Status({ text }: { text: string | null }) {
  return (
    <p role="status" class="status">
      {text ?? ''}
    </p>
  );
}

/** An assertive live region for a failure. */
export function ErrorMessage({ text }: { text: string | null }) {
  return (
    <div role="alert" class={text ? 'error-message' : 'error-empty'}>
      {text ? <p>{text}</p> : null}
    </div>
  );
}

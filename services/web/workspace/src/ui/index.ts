/** The workspace's kit of shared parts: every screen builds its forms, dialogs and lists from these. */
export { ConfirmDialog } from './confirm-dialog.tsx';
export { Dialog } from './dialog.tsx';
export { DialogActions } from './dialog-actions.tsx';
export { CheckGroup, describedBy, Field, FieldFrame, Select, SubmitButton } from './field.tsx';
export { useFieldCheck } from './field-check.ts';
export { Link } from './link.tsx';
export { Loading } from './loading.tsx';
export { NoteField } from './note-field.tsx';
export { ListAction, PagedRows } from './paged-rows.tsx';
export { Pager } from './pager.tsx';
export { ScreenHeading } from './screen-heading.tsx';
export { ErrorMessage, Status } from './status.tsx';
export { useAction } from './use-action.ts';

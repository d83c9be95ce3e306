import { useEffect, useRef } from 'react';

interface ConfirmDialogProps {
  /** What is asked; the dialog shows while set. */
  question?: string;
  /** The confirming button's name ("Delete", "Revoke"). */
  action: string;
  onConfirm: () => void;
  onCancel: () => void;
}

/** A modal question before something that cannot be undone. */
export function ConfirmDialog({ question, action, onConfirm, onCancel }: ConfirmDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (question && !dialog.current!.open) dialog.current!.showModal();
    if (!question && dialog.current!.open) dialog.current!.close();
  }, [question]);
  return (
    <dialog ref={dialog} aria-label={action} onCancel={onCancel}>
      <p>{question}</p>
      <div className="actions">
        <button type="button" className="danger" onClick={onConfirm}>
          {action}
        </button>
        <button type="button" onClick={onCancel} autoFocus>
          Cancel
        </button>
      </div>
    </dialog>
  );
}

/** A problem to read at once (role alert), or nothing. */
export function Alert({ message }: { message?: string }) {
  return message ? <p role="alert">{message}</p> : null;
}

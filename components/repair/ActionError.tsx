/** A failed action, in the server's words (they name the field or the running repair). */
export function ActionError({ error }: { error: Error | null }) {
  if (!error) return null;
  return (
    <div className="error-box" role="alert">
      {error.message}
    </div>
  );
}

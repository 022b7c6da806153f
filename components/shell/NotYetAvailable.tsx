/** Says plainly that a screen is not built yet — never a mock of what it will show. */
export function NotYetAvailable({ what, tracking }: { what: string; tracking: string }) {
  return (
    <div className="notice" role="status">
      <strong>Not available yet.</strong> {what} is being built ({tracking}). Nothing on this page is shown until it can be computed from the database.
    </div>
  );
}

/** /incidents/{id}: the wizard (the layout) opens at the step the incident's state calls for. */
export default function Page() {
  return null;
}

import { readFile } from "node:fs/promises";
import type { SecretRef } from "@/lib/contracts/orchestrators";

/** The secret's name as it may be shown: `env:AIRFLOW_PASSWORD` or `file:/run/secrets/airflow`. */
export const secretName = (ref: SecretRef): string => ("env" in ref ? `env:${ref.env}` : `file:${ref.file}`);

/**
 * Reads a named secret when a request needs it — an environment variable of this console's
 * process or a file (trailing newline dropped). The error names the secret, never its value.
 */
export async function readSecret(ref: SecretRef): Promise<string> {
  if ("env" in ref) {
    const value = process.env[ref.env];
    if (!value) throw new Error(`the secret ${secretName(ref)} is not set in this console's environment`);
    return value;
  }
  try {
    const value = (await readFile(ref.file, "utf8")).replace(/\r?\n$/, "");
    if (!value) throw new Error("empty");
    return value;
  } catch (e) {
    throw new Error(`the secret ${secretName(ref)} cannot be read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** Whether the secret can be read now (for the connection's page: its value is never shown). */
export async function secretReadable(ref: SecretRef): Promise<boolean> {
  return readSecret(ref).then(
    () => true,
    () => false,
  );
}

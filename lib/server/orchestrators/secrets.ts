import { readFile, realpath } from "node:fs/promises";
import path from "node:path";
import type { SecretRef } from "@/lib/contracts/orchestrators";
import { InvalidFieldError } from "@/lib/domain/errors";

/** The secret's name as it may be shown: `env:REPARO_SECRET_AIRFLOW` or `file:/run/secrets/airflow`. */
export const secretName = (ref: SecretRef): string => ("env" in ref ? `env:${ref.env}` : `file:${ref.file}`);

/**
 * Which secrets a connection may name: environment variables whose name starts with
 * REPARO_SECRET_ENV_PREFIX (default `REPARO_SECRET_`) and files under REPARO_SECRET_DIR (default
 * `/run/secrets`, where Docker and Kubernetes mount them). Anything else is the console's own
 * configuration — naming REPARO_AUDIT_KEY or DATABASE_URL once sent it to the connection's URL as
 * a bearer token on the next dry run.
 */
export function secretPolicy(env: NodeJS.ProcessEnv = process.env): { envPrefix: string; dir: string } {
  const envPrefix = env.REPARO_SECRET_ENV_PREFIX?.trim() || "REPARO_SECRET_";
  const dir = path.resolve(/* turbopackIgnore: true */ env.REPARO_SECRET_DIR?.trim() || "/run/secrets");
  return { envPrefix, dir };
}

/** Why a named secret is not one a connection may use, or null when it may. */
export function secretRefusal(ref: SecretRef, policy = secretPolicy()): string | null {
  if ("env" in ref) {
    if (!ref.env.startsWith(policy.envPrefix) || ref.env.length === policy.envPrefix.length)
      return `a connection may name only environment variables whose name starts with ${policy.envPrefix} (REPARO_SECRET_ENV_PREFIX): rename ${ref.env} to ${policy.envPrefix}${ref.env}`;
    return null;
  }
  if (!isInside(path.resolve(ref.file), policy.dir)) return `a connection may name only files under ${policy.dir} (REPARO_SECRET_DIR); ${ref.file} is not`;
  return null;
}

/** Refuses (400, naming the field) a connection that names a secret outside the allow-list. */
export function requireAllowedSecret(ref: SecretRef, field: string): void {
  const why = secretRefusal(ref);
  if (why) throw new InvalidFieldError(`${field}.${"env" in ref ? "env" : "file"}`, why);
}

/**
 * Reads a named secret when a request needs it — an environment variable of this console's
 * process or a file (trailing newline dropped). The allow-list is checked again here (a
 * connection stored before it, a symbolic link out of the folder), and errors name the secret,
 * never its value.
 */
export async function readSecret(ref: SecretRef): Promise<string> {
  const policy = secretPolicy();
  const refused = secretRefusal(ref, policy);
  if (refused) throw new Error(`the secret ${secretName(ref)} is refused: ${refused}`);
  if ("env" in ref) {
    const value = process.env[ref.env];
    if (!value) throw new Error(`the secret ${secretName(ref)} is not set in this console's environment`);
    return value;
  }
  try {
    const real = await realpath(/* turbopackIgnore: true */ ref.file);
    if (!isInside(real, await realpath(/* turbopackIgnore: true */ policy.dir).catch(() => policy.dir)))
      throw Object.assign(new Error("outside"), { code: `a link out of ${policy.dir}` });
    const value = (await readFile(real, "utf8")).replace(/\r?\n$/, "");
    if (!value) throw new Error("empty");
    return value;
  } catch (e) {
    throw new Error(`the secret ${secretName(ref)} cannot be read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** Whether the secret can be read now (for an admin's connection page: its value is never shown). */
export async function secretReadable(ref: SecretRef): Promise<boolean> {
  return readSecret(ref).then(
    () => true,
    () => false,
  );
}

function isInside(file: string, dir: string): boolean {
  const rel = path.relative(dir, file);
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
}

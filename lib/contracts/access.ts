import { z } from "zod";
import { reasonField } from "./reason";

export const RoleSchema = z.enum(["viewer", "operator", "commander", "admin"]);

/** Who the browser is, and how it can sign in: GET /api/auth/me. */
export const MeSchema = z.object({
  id: z.string(),
  displayName: z.string(),
  role: RoleSchema,
  source: z.enum(["session", "proxy", "demo", "token", "cli", "anonymous", "system"]),
  namespaces: z.array(z.string()),
  demo: z.boolean(),
  signIn: z.object({ oidc: z.boolean(), providerName: z.string().nullable() }),
});
export type Me = z.infer<typeof MeSchema>;

const namespaces = z.array(z.string().trim().min(1).max(200)).max(100);
const userId = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[^\s]+$/, "no spaces");

export const UserViewSchema = z.object({ id: z.string(), displayName: z.string(), role: RoleSchema, namespaces: z.array(z.string()), createdAt: z.string() });
export type UserView = z.infer<typeof UserViewSchema>;
export const UserListSchema = z.object({ users: z.array(UserViewSchema) });
export const RemovedUserSchema = z.object({ removed: z.string() });

export const AddUserSchema = z.object({
  id: userId,
  role: RoleSchema,
  displayName: z.string().trim().max(200).optional(),
  namespaces: namespaces.optional(),
  reason: reasonField,
});
export type AddUser = z.infer<typeof AddUserSchema>;
export const ChangeUserSchema = z.object({
  role: RoleSchema.optional(),
  displayName: z.string().trim().max(200).optional(),
  namespaces: namespaces.optional(),
  reason: reasonField,
});
export type ChangeUser = z.infer<typeof ChangeUserSchema>;

export const TokenViewSchema = z.object({
  name: z.string(),
  scope: z.enum(["ingest", "declare"]),
  namespaces: z.array(z.string()),
  createdBy: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  revokedBy: z.string().nullable(),
});
export type TokenView = z.infer<typeof TokenViewSchema>;
export const TokenListSchema = z.object({ tokens: z.array(TokenViewSchema) });
export const CreateTokenSchema = z.object({
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, "letters, digits, . _ - (at most 64)"),
  scope: z.enum(["ingest", "declare"]),
  namespaces: namespaces.optional(),
  reason: reasonField,
});
export type CreateToken = z.infer<typeof CreateTokenSchema>;
/** The only time a token's secret leaves the server. */
export const CreatedTokenSchema = z.object({ token: TokenViewSchema, secret: z.string() });
export const NameParamsSchema = z.object({ name: z.string().min(1).max(64) });
export const UserIdParamsSchema = z.object({ id: z.string().min(1).max(200) });

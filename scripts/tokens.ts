// npm run tokens -- create|list|revoke — machine tokens for producers (OpenLineage's HTTP
// transport sends one as its api_key: Authorization: Bearer <token>).
import { createToken, listTokens, revokeToken } from "@/lib/server/access/manage-access";
import { TOKEN_SCOPES, type TokenScope } from "@/lib/server/auth/roles";
import { cliActor, namespacesFlag, parse, runAccessCli, UsageError } from "./access-cli";

const USAGE = `usage:
  npm run tokens -- create <name> --scope ${TOKEN_SCOPES.join("|")} [--namespaces a,b] [--reason …]   (prints the token alone on its last line, once)
  npm run tokens -- list
  npm run tokens -- revoke <name> [--reason …]`;

function scope(value: string | undefined): TokenScope {
  if (!value) throw new UsageError("--scope is required");
  if (!(TOKEN_SCOPES as readonly string[]).includes(value)) throw new UsageError(`--scope: expected one of ${TOKEN_SCOPES.join(", ")}, got ${value}`);
  return value as TokenScope;
}

runAccessCli(USAGE, async (db, where) => {
  const [command, ...rest] = process.argv.slice(2);
  const { values, positionals } = parse(rest, { scope: { type: "string" }, namespaces: { type: "string" } });
  const name = positionals[0];
  const needName = () => {
    if (!name) throw new UsageError(`${command}: the token name is required`);
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name)) throw new UsageError("the token name: letters, digits, . _ - (at most 64)");
    return name;
  };
  switch (command) {
    case "create": {
      const { token, secret } = await createToken(
        db,
        { name: needName(), scope: scope(values.scope), namespaces: namespacesFlag(values.namespaces) },
        cliActor(values.reason, "created from the command line"),
      );
      console.error(
        `${where}: token ${token.name} (scope ${token.scope}${token.namespaces.length ? `, namespaces ${token.namespaces.join(",")}` : ""}) — shown once, only its hash is kept:`,
      );
      console.log(secret);
      return;
    }
    case "list": {
      const tokens = await listTokens(db);
      if (tokens.length === 0) console.log(`${where}: no tokens yet — npm run tokens -- create <name> --scope ingest`);
      for (const t of tokens) {
        const state = t.revokedAt ? `revoked ${t.revokedAt.toISOString()} by ${t.revokedBy}` : "active";
        console.log(
          `${t.name}\t${t.scope}\t${t.namespaces.length ? t.namespaces.join(",") : "all namespaces"}\t${state}\tlast used ${t.lastUsedAt?.toISOString() ?? "never"}\tcreated by ${t.createdBy}`,
        );
      }
      return;
    }
    case "revoke": {
      const t = await revokeToken(db, needName(), cliActor(values.reason, "revoked from the command line"));
      console.log(`${where}: token ${t.name} revoked`);
      return;
    }
    default:
      throw new UsageError(command ? `unknown command ${command}` : "a command is required");
  }
});

// npm run users -- add|list|set-role|remove|sign-in-link — people and their roles, from the
// console's machine (the first admin of a fresh database is made here; the rest on /settings/access).
import { addUser, changeUser, listUsers, removeUser } from "@/lib/server/access/manage-access";
import { isRole, ROLES, type Role } from "@/lib/server/auth/roles";
import { signInLink } from "@/lib/server/auth/sign-in-link";
import { cliActor, namespacesFlag, parse, runAccessCli, UsageError } from "./access-cli";

const USAGE = `usage:
  npm run users -- add <id> --role ${ROLES.join("|")} [--name "Full Name"] [--namespaces a,b] [--reason …]
  npm run users -- list
  npm run users -- set-role <id> --role <role> [--namespaces a,b|""] [--name …] [--reason …]
  npm run users -- remove <id> [--reason …]
  npm run users -- sign-in-link <id> [--minutes 15]   (prints a one-time sign-in URL on its last line)`;

function role(value: string | undefined): Role {
  if (!value) throw new UsageError("--role is required");
  if (!isRole(value)) throw new UsageError(`--role: expected one of ${ROLES.join(", ")}, got ${value}`);
  return value;
}

runAccessCli(USAGE, async (db, where) => {
  const [command, ...rest] = process.argv.slice(2);
  const { values, positionals } = parse(rest, {
    role: { type: "string" },
    name: { type: "string" },
    namespaces: { type: "string" },
    minutes: { type: "string" },
  });
  const id = positionals[0];
  const needId = () => {
    if (!id) throw new UsageError(`${command}: the user id is required`);
    return id;
  };
  switch (command) {
    case "add": {
      const u = await addUser(
        db,
        { id: needId(), role: role(values.role), displayName: values.name, namespaces: namespacesFlag(values.namespaces) },
        cliActor(values.reason, "added from the command line"),
      );
      console.log(`${where}: added ${u.id} (${u.displayName}) as ${u.role}${u.namespaces.length ? ` in ${u.namespaces.join(", ")}` : ""}`);
      return;
    }
    case "list": {
      const users = await listUsers(db);
      if (users.length === 0) console.log(`${where}: no users yet — npm run users -- add <id> --role admin`);
      for (const u of users) console.log(`${u.id}\t${u.role}\t${u.namespaces.length ? u.namespaces.join(",") : "all namespaces"}\t${u.displayName}`);
      return;
    }
    case "set-role": {
      const u = await changeUser(
        db,
        needId(),
        { role: values.role === undefined ? undefined : role(values.role), displayName: values.name, namespaces: namespacesFlag(values.namespaces) },
        cliActor(values.reason, "changed from the command line"),
      );
      console.log(`${where}: ${u.id} is now ${u.role}${u.namespaces.length ? ` in ${u.namespaces.join(", ")}` : ""}`);
      return;
    }
    case "remove": {
      await removeUser(db, needId(), cliActor(values.reason, "removed from the command line"));
      console.log(`${where}: removed ${id}`);
      return;
    }
    case "sign-in-link": {
      const minutes = values.minutes === undefined ? 15 : Number(values.minutes);
      if (!Number.isInteger(minutes) || minutes < 1 || minutes > 24 * 60) throw new UsageError("--minutes: a whole number from 1 to 1440");
      const link = await signInLink(db, needId(), minutes);
      console.log(`${where}: one-time sign-in link for ${id}, valid ${minutes} min:`);
      console.log(link);
      return;
    }
    default:
      throw new UsageError(command ? `unknown command ${command}` : "a command is required");
  }
});

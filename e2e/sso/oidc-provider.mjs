// A real, certified OpenID provider (oidc-provider) for the sign-in tests: its development login
// form accepts any password; the accounts' groups decide their Reparo roles.
import Provider from "oidc-provider";

const port = Number(process.env.OIDC_PORT ?? 3901);
const consoleUrl = process.env.CONSOLE_URL ?? "http://127.0.0.1:3201";
export const ACCOUNTS = {
  ada: { name: "Ada Admin", email: "ada@example.com", groups: ["reparo-admins"] },
  ola: { name: "Ola Operator", email: "ola@example.com", groups: ["orders-eng"] },
  vic: { name: "Vic Viewer", email: "vic@example.com", groups: ["marketing"] },
};

const provider = new Provider(`http://127.0.0.1:${port}`, {
  clients: [
    {
      client_id: "reparo-e2e",
      client_secret: "reparo-e2e-client-secret",
      redirect_uris: [`${consoleUrl}/api/auth/callback`],
      post_logout_redirect_uris: [`${consoleUrl}/sign-in?signed-out=1`],
      token_endpoint_auth_method: "client_secret_post",
    },
  ],
  async findAccount(_ctx, id) {
    const a = ACCOUNTS[id];
    if (!a) return undefined;
    return { accountId: id, claims: async () => ({ sub: id, ...a }) };
  },
  claims: { openid: ["sub"], profile: ["name"], email: ["email"], groups: ["groups"] },
  scopes: ["openid", "profile", "email", "groups"],
  features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
  cookies: { keys: ["reparo-e2e-cookie-key-0123456789"] },
  pkce: { required: () => true },
});
provider.proxy = false;
provider.listen(port, "127.0.0.1", () => console.log(`oidc-provider on http://127.0.0.1:${port}`));

import { describe, expect, it } from "vitest";
import { OidcConfigError, oidcSettings, parseRoleMappings, roleFromGroups, safeNext } from "./oidc";

describe("roles from the provider's groups", () => {
  const s = {
    mappings: parseRoleMappings("reparo-admins=admin, data-eng=operator@orders, meters-eng=operator@meters, leads=commander"),
    defaultRole: "viewer" as const,
  };

  it("the highest mapped role wins, in the namespaces its mappings name", () => {
    expect(roleFromGroups(["data-eng"], s)).toEqual({ role: "operator", namespaces: ["orders"] });
    expect(roleFromGroups(["meters-eng", "data-eng"], s)).toEqual({ role: "operator", namespaces: ["meters", "orders"] });
    expect(roleFromGroups(["data-eng", "leads"], s)).toEqual({ role: "commander", namespaces: [] });
    expect(roleFromGroups(["reparo-admins", "data-eng"], s)).toEqual({ role: "admin", namespaces: [] });
  });

  it("no mapped group: the default role, or refused when the default is none", () => {
    expect(roleFromGroups(["marketing"], s)).toEqual({ role: "viewer", namespaces: [] });
    expect(roleFromGroups([], { ...s, defaultRole: null })).toBeNull();
  });

  it("a malformed mapping or setting is a configuration error naming the variable", () => {
    expect(() => parseRoleMappings("admins=root")).toThrow(OidcConfigError);
    expect(() => parseRoleMappings("admins")).toThrow(/REPARO_OIDC_ROLES/);
    expect(() => parseRoleMappings("ops=admin@orders")).toThrow(/cannot be limited to a namespace/);
    expect(() => oidcSettings({ REPARO_OIDC_ISSUER: "not a url" })).toThrow(/REPARO_OIDC_ISSUER/);
    expect(() => oidcSettings({ REPARO_OIDC_ISSUER: "https://idp.example" })).toThrow(/REPARO_OIDC_CLIENT_ID/);
    expect(oidcSettings({})).toBeNull();
  });

  it("after sign-in, only a path of this console: never an open redirect", () => {
    expect(safeNext("/units?x=1")).toBe("/units?x=1");
    expect(safeNext("/incidents/abc#timeline")).toBe("/incidents/abc#timeline");
    expect(safeNext("/a/../units")).toBe("/units");
    for (const bad of [
      "//evil.example",
      "https://evil.example",
      "/\\evil.example",
      "/\t/evil.example",
      "/\n/evil.example",
      "/.//evil.example",
      "/..//evil.example",
      "/.%2e//evil.example",
      "/%2e%2e//evil.example",
      "/./\\evil.example",
      "/a/..//evil.example",
      "",
      null,
    ])
      expect(safeNext(bad), String(bad)).toBe("/");
  });
});

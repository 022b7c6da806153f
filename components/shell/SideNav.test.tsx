import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { http, HttpResponse } from "msw";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { server } from "@/test/components/msw-server";
import { renderWithQuery } from "@/test/components/render";
import { SideNav } from "./SideNav";

const nav = vi.hoisted(() => ({ pathname: "/alerts" }));
vi.mock("next/navigation", () => ({ usePathname: () => nav.pathname }));

describe("SideNav", () => {
  beforeEach(() => {
    nav.pathname = "/alerts";
    server.use(
      http.get("/api/auth/me", () =>
        HttpResponse.json({
          id: "demo-commander",
          displayName: "Dana Okafor",
          role: "commander",
          namespaces: [],
          source: "demo",
          demo: true,
          signIn: { oidc: false, providerName: null },
        }),
      ),
    );
  });

  it("marks the current section and names it on the phone's menu button", () => {
    renderWithQuery(<SideNav />);
    expect(screen.getByRole("link", { name: "Alerts" })).toHaveAttribute("aria-current", "page");
    expect(screen.getByRole("link", { name: "Overview" })).not.toHaveAttribute("aria-current");
    expect(screen.getByRole("button", { name: /^Alerts/ })).toHaveAttribute("aria-expanded", "false");
  });

  it("opens with the button and closes with Esc", async () => {
    const user = userEvent.setup();
    renderWithQuery(<SideNav />);
    const menu = screen.getByRole("button", { name: /^Alerts/ });
    await user.click(menu);
    expect(menu).toHaveAttribute("aria-expanded", "true");
    expect(screen.getByRole("navigation", { name: "Main" })).toHaveAttribute("data-open", "true");
    await user.keyboard("{Escape}");
    expect(menu).toHaveAttribute("aria-expanded", "false");
  });

  it("closes when the page changes", async () => {
    const user = userEvent.setup();
    const view = renderWithQuery(<SideNav />);
    await user.click(screen.getByRole("button", { name: /^Alerts/ }));
    nav.pathname = "/history";
    view.rerender(<SideNav />);
    expect(screen.getByRole("button", { name: /^History/ })).toHaveAttribute("aria-expanded", "false");
  });
});

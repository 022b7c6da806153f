import { test as base, expect } from "@playwright/test";

/** Every e2e test fails on a console error or an uncaught page error in Chromium. */
export const test = base.extend<{ consoleErrors: string[] }>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on("console", (msg) => {
        if (msg.type() === "error") errors.push(msg.text());
      });
      page.on("pageerror", (err) => errors.push(err.message));
      await use(errors);
      expect(errors, "console errors in Chromium").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

import { setupServer } from "msw/node";

/** The one MSW server of the component tests; each test adds its handlers with server.use(). */
export const server = setupServer();

import { createContext } from "react";

/**
 * Whether the page request carried a session cookie (the member shell's loader reads it): the server render and
 * the browser agree from the first paint, so a visitor's page never shows member controls and never calls a
 * private endpoint (README Decisions "Visitors and navigation"). Null outside the member shell.
 */
export const SignedInContext = createContext<boolean | null>(null);

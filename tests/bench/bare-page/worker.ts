// The app's way of serving pages (worker/index.ts): React Router's request handler built once at module scope.
import { createRequestHandler } from "react-router";

const handleRequest = createRequestHandler(() => import("virtual:react-router/server-build"), import.meta.env.MODE);

export default {
  fetch: (request: Request) => handleRequest(request),
} satisfies ExportedHandler;
